import type { StateInline } from 'markdown-it';
import { parseEnv } from '../env.js';

const TIMESTAMP = /<time:([^>]*?)>/y;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;
const HAS_ZONE = /(?:Z|[+-]\d{2}:?\d{2}|\b(?:UTC|GMT|[ECMP][SD]T))$/i;

export function matchTimestamp(src: string, pos: number): number {
  if (src.charCodeAt(pos) !== 0x3c /* < */) return -1;
  TIMESTAMP.lastIndex = pos;
  return TIMESTAMP.exec(src) === null ? -1 : TIMESTAMP.lastIndex;
}

/**
 * The instant a `<time:...>` refers to: a Unix timestamp, an ISO 8601 date-time, or a date the
 * JavaScript date parser reads; times without a zone are UTC, as in Zulip.
 */
export function parseTimestamp(input: string): Date | undefined {
  const text = input.trim();
  let time: number;
  if (/^-?\d+(?:\.\d+)?$/.test(text)) {
    time = Number(text) * 1000;
  } else if (ISO_DATE.test(text)) {
    const normalized = text.replace(' ', 'T');
    time = Date.parse(HAS_ZONE.test(normalized) || !normalized.includes('T') ? normalized : `${normalized}Z`);
  } else {
    // The JavaScript parser reads `Jun 5 2017, 10:30 PM` but not `Jun 5th 2017, 10:30PM`.
    const readable = text.replace(/(\d)(?:st|nd|rd|th)\b/gi, '$1').replace(/(\d)([ap]m)\b/gi, '$1 $2');
    time = Date.parse(HAS_ZONE.test(readable) ? readable : `${readable} UTC`);
  }
  return Number.isFinite(time) && Math.abs(time) <= 8.64e15 ? new Date(time) : undefined;
}

/** Zulip's `datetime` attribute: ISO 8601 in UTC with a `Z`, fractions only when present. */
export function formatTimestamp(date: Date): string {
  const iso = date.toISOString();
  const millis = date.getUTCMilliseconds();
  return millis === 0 ? iso.replace('.000Z', 'Z') : iso.replace(/\.(\d{3})Z$/, '.$1000Z');
}

export function timestamp(state: StateInline, silent: boolean): boolean {
  const end = matchTimestamp(state.src, state.pos);
  if (end < 0 || end > state.posMax) return false;
  if (!silent && parseEnv(state.env).mode === 'render') {
    const token = state.push('zulip_timestamp', 'time', 0);
    token.content = state.src.slice(state.pos + '<time:'.length, end - 1);
  }
  state.pos = end;
  return true;
}
