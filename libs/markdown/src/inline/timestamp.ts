import type { StateInline } from 'markdown-it';
import { parseEnv } from '../env.js';

const TIMESTAMP = /<time:([^>]*?)>/y;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)?(?:Z|[+-]\d{2}:?\d{2})?$/i;
const HAS_ZONE = /(?:Z|[+-]\d{2}:?\d{2}|\b(?:UTC|GMT|[ECMP][SD]T))$/i;

/**
 * Time zone abbreviations people commonly write, beyond the US zones the JavaScript parser knows, and the UTC
 * offset each is read as (where one abbreviation has several meanings, the most widespread one).
 */
const ZONE_OFFSETS: Readonly<Record<string, string>> = {
  IST: '+0530',
  CET: '+0100',
  CEST: '+0200',
  WET: '+0000',
  WEST: '+0100',
  BST: '+0100',
  EET: '+0200',
  EEST: '+0300',
  MSK: '+0300',
  SAST: '+0200',
  WAT: '+0100',
  EAT: '+0300',
  PKT: '+0500',
  ICT: '+0700',
  WIB: '+0700',
  SGT: '+0800',
  HKT: '+0800',
  AWST: '+0800',
  JST: '+0900',
  KST: '+0900',
  ACST: '+0930',
  ACDT: '+1030',
  AEST: '+1000',
  AEDT: '+1100',
  NZST: '+1200',
  NZDT: '+1300',
  HST: '-1000',
  AKST: '-0900',
  AKDT: '-0800',
  BRT: '-0300',
  ART: '-0300',
};
const TRAILING_ZONE = /\b([A-Z]{3,4})$/;

/** `… 5:30 am IST` → `… 5:30 am GMT+0530`, which the JavaScript parser reads. */
function withNumericZone(text: string): string {
  const abbreviation = TRAILING_ZONE.exec(text)?.[1];
  const offset = abbreviation === undefined ? undefined : ZONE_OFFSETS[abbreviation];
  return offset === undefined ? text : `${text.slice(0, -abbreviation!.length)}GMT${offset}`;
}

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
    const readable = withNumericZone(text.replace(/(\d)(?:st|nd|rd|th)\b/gi, '$1').replace(/(\d)([ap]m)\b/gi, '$1 $2'));
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
