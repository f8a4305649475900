/**
 * Zulip's links in the URL fragment: `#narrow/channel/<id>-<name>/topic/<topic>`, `#narrow/dm/<ids>-<slug>`,
 * `#narrow/near/<id>`, `#narrow/search/<words>`, and the views (`#inbox`, `#recent`, `#feed`, …). Components are
 * encoded as Zulip does, by the server's own encoder (@confab/zulip), so links copied from Zulip's apps open here
 * and links from here open there.
 */
import { channelSlug as slugOf, decodeHashComponent, encodeHashComponent, groupDmSlug, userSlug } from '@confab/zulip';
import { canonicalOperator, type Term } from './narrow';

export { decodeHashComponent, encodeHashComponent };

/** The views that are not a narrow of messages. */
export const VIEWS = ['inbox', 'recent', 'drafts', 'scheduled', 'channels', 'people', 'settings', 'bots'] as const;
export type ViewName = (typeof VIEWS)[number];

export type Route = { view: 'narrow'; terms: Term[] } | { view: ViewName; channelId?: number };

/** What the client needs to write names into links. */
export interface Names {
  channelName(id: number): string | undefined;
  userName(id: number): string | undefined;
}

export function channelSlug(id: number, names: Names): string {
  const name = names.channelName(id);
  return name === undefined ? String(id) : slugOf(id, name);
}

function dmSlug(ids: readonly number[], names: Names): string {
  if (ids.length === 1) {
    const name = names.userName(ids[0]);
    return name ? userSlug(ids[0], name) : `${ids[0]}-dm`;
  }
  return groupDmSlug(ids);
}

function operandToHash(term: Term, names: Names): string {
  if (term.operator === 'channel' && typeof term.operand === 'number') return channelSlug(term.operand, names);
  if (term.operator === 'dm' || term.operator === 'dm-including') {
    const ids = Array.isArray(term.operand) ? term.operand : [Number(term.operand)];
    return dmSlug(ids, names);
  }
  return encodeHashComponent(String(term.operand));
}

/** A narrow's link (`#feed` for all messages). */
export function narrowHash(terms: readonly Term[], names: Names): string {
  if (terms.length === 0) return '#feed';
  return `#narrow/${terms
    .map((t) => `${t.negated ? '-' : ''}${encodeHashComponent(t.operator)}/${operandToHash(t, names)}`)
    .join('/')}`;
}

export function routeHash(route: Route, names: Names): string {
  if (route.view === 'narrow') return narrowHash(route.terms, names);
  if (route.view === 'channels' && route.channelId !== undefined) return `#channels/${route.channelId}`;
  // Zulip's link to one's bots, so links from its apps open here.
  if (route.view === 'bots') return '#settings/your-bots';
  return `#${route.view}`;
}

/** The ids at the front of a dm operand (`12,15-group`, `12-Iago`), or the operand's emails. */
function dmOperand(text: string): number[] | string {
  const match = /^(\d+(?:,\d+)*)(?:-.*)?$/.exec(text);
  return match ? match[1].split(',').map(Number) : text;
}

function operandFromHash(operator: string, raw: string, resolveChannel?: (name: string) => number | undefined) {
  const text = decodeHashComponent(raw);
  switch (operator) {
    case 'channel': {
      const match = /^(\d+)(?:-.*)?$/.exec(text);
      if (match) return Number(match[1]);
      // An old-style link by name (`#narrow/stream/Denmark`); names use `-` for spaces in links.
      return resolveChannel?.(text) ?? resolveChannel?.(text.replace(/-/g, ' ')) ?? text;
    }
    case 'dm':
    case 'dm-including':
      return dmOperand(text);
    case 'near':
    case 'with':
    case 'id':
      return /^\d+$/.test(text) ? Number(text) : text;
    default:
      return text;
  }
}

/** The route a URL fragment names; an unknown or empty one is the inbox. */
export function parseHash(hash: string, resolveChannel?: (name: string) => number | undefined): Route {
  const path = hash.replace(/^#/, '');
  if (path === '' || path === 'home') return { view: 'inbox' };
  if (path === 'feed' || path === 'all_messages') return { view: 'narrow', terms: [] };
  if (path === 'narrow' || path.startsWith('narrow/')) {
    const parts = path.split('/').slice(1);
    const terms: Term[] = [];
    for (let i = 0; i + 1 < parts.length; i += 2) {
      let operator = decodeHashComponent(parts[i]);
      const negated = operator.startsWith('-');
      if (negated) operator = operator.slice(1);
      operator = canonicalOperator(operator);
      const term: Term = { operator, operand: operandFromHash(operator, parts[i + 1], resolveChannel) };
      if (negated) term.negated = true;
      terms.push(term);
    }
    return { view: 'narrow', terms };
  }
  const [view, id] = path.split('/');
  if (view === 'channels' && id && /^\d+$/.test(id)) return { view: 'channels', channelId: Number(id) };
  if (view === 'settings' && id === 'your-bots') return { view: 'bots' };
  if ((VIEWS as readonly string[]).includes(view)) return { view: view as ViewName };
  return { view: 'inbox' };
}
