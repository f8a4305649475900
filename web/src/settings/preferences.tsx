/**
 * Notification and display settings (PATCH /settings, one setting at a time). What is shown is the store's
 * `settings`, which the server's user_settings event changes: a change made in another browser shows here too.
 */
import { useState } from 'preact/hooks';
import * as client from '../lib/client';
import { askPermission, permission } from '../notifications/permission';
import { playSound } from '../notifications/sound';
import { browserZone } from '../conversations/times';
import { setSettingLocally, settings } from '../store/personal';
import { FONT_SIZES, LINE_HEIGHTS } from '../ui/density-tokens';
import { errorText, Outcome } from '../ui/outcome';

function useSave() {
  const [error, setError] = useState('');
  // Shown at once (the server's event confirms it); put back if the server refuses.
  const save = (name: string, value: boolean | number | string) => {
    setError('');
    const change = setSettingLocally(name, value);
    void client.me.settings({ [name]: value }).catch((e: unknown) => {
      change.undo();
      setError(errorText(e));
    });
  };
  return { error, save };
}

function Toggle({ name, label, save }: { name: string; label: string; save: (name: string, value: boolean) => void }) {
  return (
    <label class="check">
      <input
        type="checkbox"
        name={name}
        checked={!!settings.value[name]}
        onChange={(e) => save(name, e.currentTarget.checked)}
      />
      {label}
    </label>
  );
}

const PERMISSION_TEXT = {
  granted: 'This browser shows Confab’s notifications.',
  denied: 'This browser blocks Confab’s notifications (change it in the browser’s site settings).',
  default: 'This browser has not been asked yet.',
  unsupported: 'This browser cannot show notifications.',
};

export function NotificationSettings() {
  const { error, save } = useSave();
  return (
    <section aria-labelledby="notifications-heading">
      <h2 id="notifications-heading">Notifications</h2>
      <p id="notification-permission">
        {PERMISSION_TEXT[permission.value]}{' '}
        {permission.value === 'default' && (
          <button type="button" onClick={() => void askPermission()}>
            Allow notifications
          </button>
        )}
      </p>
      <fieldset>
        <legend>Direct messages and mentions</legend>
        <Toggle name="enable_desktop_notifications" label="Desktop notifications" save={save} />
        <Toggle name="enable_sounds" label="Sound" save={save} />
        <Toggle name="wildcard_mentions_notify" label="Notify for @all and @topic mentions" save={save} />
      </fieldset>
      <fieldset>
        <legend>Followed topics</legend>
        <Toggle name="enable_followed_topic_desktop_notifications" label="Desktop notifications" save={save} />
        <Toggle name="enable_followed_topic_audible_notifications" label="Sound" save={save} />
      </fieldset>
      <fieldset>
        <legend>Channels</legend>
        <Toggle name="enable_stream_desktop_notifications" label="Desktop notifications" save={save} />
        <Toggle name="enable_stream_audible_notifications" label="Sound" save={save} />
      </fieldset>
      <div class="check">
        <label for="setting-count">Unread count in the tab title</label>
        <select
          id="setting-count"
          value={String(settings.value.desktop_icon_count_display)}
          onChange={(e) => save('desktop_icon_count_display', Number(e.currentTarget.value))}
        >
          <option value="1">All unread messages</option>
          <option value="2">Direct messages, mentions and followed topics</option>
          <option value="3">Direct messages and mentions</option>
          <option value="4">None</option>
        </select>
        <button type="button" onClick={playSound}>
          Play the sound
        </button>
      </div>
      <Outcome error={error} />
    </section>
  );
}

export function DisplaySettings() {
  const { error, save } = useSave();
  return (
    <section aria-labelledby="display-heading">
      <h2 id="display-heading">Display</h2>
      <fieldset>
        <legend>Theme</legend>
        {(
          [
            [1, 'Automatic (as the system)'],
            [3, 'Light'],
            [2, 'Dark'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} class="check">
            <input
              type="radio"
              name="color_scheme"
              value={String(value)}
              checked={settings.value.color_scheme === value}
              onChange={() => save('color_scheme', value)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <Toggle name="twenty_four_hour_time" label="24-hour time" save={save} />
      <Outcome error={error} />
    </section>
  );
}

/** Languages Zulip offers, by their codes (`default_language`), named in themselves. */
export const LANGUAGES: readonly [string, string][] = [
  ['en', 'English'],
  ['en_GB', 'English (United Kingdom)'],
  ['de', 'Deutsch'],
  ['es', 'Español'],
  ['fr', 'Français'],
  ['it', 'Italiano'],
  ['nl', 'Nederlands'],
  ['pl', 'Polski'],
  ['pt', 'Português'],
  ['pt-br', 'Português (Brasil)'],
  ['cs', 'Čeština'],
  ['sv', 'Svenska'],
  ['tr', 'Türkçe'],
  ['ru', 'Русский'],
  ['uk', 'Українська'],
  ['hi', 'हिन्दी'],
  ['ja', '日本語'],
  ['ko', '한국어'],
  ['zh-hans', '简体中文'],
  ['zh-hant', '繁體中文'],
];

/** Every IANA zone the browser knows (and UTC), for the time zone setting. */
function zones(): string[] {
  const supported = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf?.('timeZone') ?? [];
  return ['UTC', ...supported.filter((z) => z !== 'UTC')];
}

/**
 * Language and time zone: the language dates and times are written in (the page's own words stay English for
 * now), and the zone message times show in. The server takes no empty zone: while none is set (''), times show in
 * this browser's, and one button sets the browser's (Zulip's "automatic" suggestion).
 */
export function LanguageAndTimeSettings() {
  const { error, save } = useSave();
  const language = String(settings.value.default_language || 'en');
  const zone = String(settings.value.timezone || '');
  const known = LANGUAGES.some(([code]) => code === language);
  const here = browserZone();
  const list = zones();
  if (!list.includes(here)) list.unshift(here);
  return (
    <section aria-labelledby="language-heading">
      <h2 id="language-heading">Language and time zone</h2>
      <div class="check">
        <label for="setting-language">Language</label>
        <select
          id="setting-language"
          value={language}
          onChange={(e) => save('default_language', e.currentTarget.value)}
        >
          {!known && <option value={language}>{language}</option>}
          {LANGUAGES.map(([code, name]) => (
            <option key={code} value={code} lang={code.replace(/_/g, '-')}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div class="check">
        <label for="setting-timezone">Time zone</label>
        <select id="setting-timezone" value={zone} onChange={(e) => save('timezone', e.currentTarget.value)}>
          {!zone && <option value="">Not set: this browser’s ({here})</option>}
          {zone && !list.includes(zone) && <option value={zone}>{zone}</option>}
          {list.map((z) => (
            <option key={z} value={z}>
              {z.replace(/_/g, ' ')}
            </option>
          ))}
        </select>
        {zone !== here && (
          <button type="button" id="setting-timezone-browser" onClick={() => save('timezone', here)}>
            Use this browser’s time zone ({here})
          </button>
        )}
      </div>
      <Outcome error={error} />
    </section>
  );
}

/** Compose: whether Enter sends (Shift+Enter a new line) or Ctrl+Enter sends (Enter a new line), as Zulip's. */
export function ComposeSettings() {
  const { error, save } = useSave();
  return (
    <section aria-labelledby="compose-settings-heading">
      <h2 id="compose-settings-heading">Composing</h2>
      <fieldset>
        <legend>Sending a message</legend>
        {(
          [
            [true, 'Enter sends, Shift+Enter starts a new line'],
            [false, 'Ctrl+Enter sends, Enter starts a new line'],
          ] as const
        ).map(([value, label]) => (
          <label key={String(value)} class="check">
            <input
              type="radio"
              name="enter_sends"
              value={String(value)}
              checked={!!settings.value.enter_sends === value}
              onChange={() => save('enter_sends', value)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <Outcome error={error} />
    </section>
  );
}

/** Zulip's information density: the message view's font size and line spacing. */
export function DensitySettings() {
  const { error, save } = useSave();
  const size = Number(settings.value.web_font_size_px);
  const height = Number(settings.value.web_line_height_percent);
  return (
    <section aria-labelledby="density-heading">
      <h2 id="density-heading">Information density</h2>
      <div class="check">
        <label for="setting-font-size">Message font size</label>
        <select
          id="setting-font-size"
          value={String(size)}
          onChange={(e) => save('web_font_size_px', Number(e.currentTarget.value))}
        >
          {!FONT_SIZES.includes(size as never) && <option value={String(size)}>{size} px</option>}
          {FONT_SIZES.map((px) => (
            <option key={px} value={String(px)}>
              {px} px{px === 16 ? ' (default)' : px === 14 ? ' (compact)' : ''}
            </option>
          ))}
        </select>
      </div>
      <div class="check">
        <label for="setting-line-height">Line spacing</label>
        <select
          id="setting-line-height"
          value={String(height)}
          onChange={(e) => save('web_line_height_percent', Number(e.currentTarget.value))}
        >
          {!LINE_HEIGHTS.some(([v]) => v === height) && <option value={String(height)}>{height} %</option>}
          {LINE_HEIGHTS.map(([percent, name]) => (
            <option key={percent} value={String(percent)}>
              {name} ({percent} %)
            </option>
          ))}
        </select>
      </div>
      <p class="density-sample" id="density-sample">
        A message in the message view reads like this, at this size and spacing, over one or more lines of text.
      </p>
      <Outcome error={error} />
    </section>
  );
}
