import type { StateInline } from 'markdown-it';

// Zulip passes entity references through untouched (`&nbsp;` stays `&nbsp;`).
const ENTITY = /&(?:#[0-9]+|#x[0-9a-fA-F]+|[a-zA-Z0-9]+);/y;

export function entity(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x26 /* & */) return false;
  ENTITY.lastIndex = state.pos;
  const m = ENTITY.exec(state.src);
  if (m === null || ENTITY.lastIndex > state.posMax) return false;
  if (!silent) state.push('zulip_entity', '', 0).content = m[0];
  state.pos = ENTITY.lastIndex;
  return true;
}
