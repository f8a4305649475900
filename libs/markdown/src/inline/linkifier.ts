import type { StateInline } from 'markdown-it';
import { parseEnv } from '../env.js';
import { linkifierMayStartAt, linkifierUrl } from '../linkifiers.js';
import { relativizeRealmUrl, sanitizeUrl } from '../urls.js';

/**
 * The organization's linkifiers (Zulip's LinkifierPattern): at a position where one may start, the first linkifier
 * (in the organization's order) whose pattern matches here links the matched text to its expanded URL template.
 */
export function linkifier(state: StateInline, silent: boolean): boolean {
  const { linkifiers, realmUrl } = parseEnv(state.env).context;
  if (linkifiers.length === 0 || !linkifierMayStartAt(state.src, state.pos)) return false;
  for (const l of linkifiers) {
    l.sticky.lastIndex = state.pos;
    const match = l.sticky.exec(state.src);
    if (match === null || match[0] === '' || state.pos + match[0].length > state.posMax) continue;
    const href = sanitizeUrl(linkifierUrl(l, match));
    if (href === null) continue;
    if (!silent) {
      const open = state.push('link_open', 'a', 1);
      open.attrs = [['href', relativizeRealmUrl(href, realmUrl)]];
      const text = state.push('text', '', 0);
      text.content = match[0];
      text.meta = { atomic: true };
      state.push('link_close', 'a', -1);
    }
    state.pos += match[0].length;
    return true;
  }
  return false;
}
