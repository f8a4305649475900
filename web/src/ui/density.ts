/**
 * Zulip's information density: the user's `web_font_size_px` and `web_line_height_percent` set the message view's
 * tokens (`--message-font-size`, `--message-line-height`, read by density.css), in every window as the user_settings
 * events come.
 */
import { effect } from '@preact/signals';
import { settings } from '../store/personal';
import { densityTokens } from './density-tokens';
import './density.css';

effect(() => {
  const { fontSize, lineHeight } = densityTokens(
    settings.value.web_font_size_px,
    settings.value.web_line_height_percent,
  );
  const root = document.documentElement.style;
  root.setProperty('--message-font-size', fontSize);
  root.setProperty('--message-line-height', lineHeight);
});
