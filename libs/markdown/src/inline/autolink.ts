import type { StateInline } from 'markdown-it';
import tldList from 'tlds';
import { parseEnv } from '../env.js';
import { relativizeRealmUrl, sanitizeUrl } from '../urls.js';
import { isUrlBoundary } from './text.js';

// Bare URLs, e-mail and bitcoin addresses, matched with the semantics of Zulip's web-link regex.

// File extensions that look like TLDs (`views.py`, `readme.md`) are not linked.
const FALSE_TLDS = new Set(['java', 'md', 'mov', 'py', 'zip']);
const TLDS = new Set(tldList.filter((tld) => !FALSE_TLDS.has(tld)));
const MAX_PAREN_DEPTH = 7;
const TRAILING_PUNCTUATION = new Set([...`!:;?),.'">`].map((c) => c.charCodeAt(0)));
const WORD = /[\p{L}\p{N}_]/u;
const SPACE = /\s/u;
const BITCOIN = /bitcoin:[13][a-km-zA-HJ-NP-Z1-9]{25,34}/y;

const isWord = (ch: string): boolean => ch !== '' && WORD.test(ch);
const isHostChar = (ch: string): boolean => isWord(ch) || ch === '.' || ch === ':' || ch === '@' || ch === '-';
const isDomainChar = (ch: string): boolean => isWord(ch) || ch === '.' || ch === '-';

/** The URL may end here: only punctuation follows before whitespace or the end of the text. */
function endsHere(src: string, pos: number): boolean {
  let p = pos;
  while (p < src.length && TRAILING_PUNCTUATION.has(src.charCodeAt(p))) p++;
  return p >= src.length || SPACE.test(src.charAt(p));
}

/** Shortest path starting at the `/` at `start` that may end the URL, with balanced parentheses. */
function pathEnd(src: string, start: number): number {
  let depth = 0;
  for (let p = start + 1; ; p++) {
    if (depth === 0 && endsHere(src, p)) return p;
    const ch = src.charAt(p);
    if (ch === '' || ch === '"' || SPACE.test(ch)) return -1;
    if (ch === '(') {
      if (++depth > MAX_PAREN_DEPTH) return -1;
    } else if (ch === ')') {
      if (depth === 0) return -1;
      depth--;
    }
  }
}

/** After a host or domain ending at `pos`: an optional path, then the end of the URL. */
function finish(src: string, pos: number): number {
  if (src.charAt(pos) === '/') {
    const end = pathEnd(src, pos);
    if (end >= 0) return end;
  }
  return endsHere(src, pos) ? pos : -1;
}

function matchHttp(src: string, pos: number): number {
  const scheme = src.startsWith('https://', pos) ? 8 : src.startsWith('http://', pos) ? 7 : 0;
  if (scheme === 0) return -1;
  // The host is matched lazily: the shortest host after which the URL can end wins.
  for (let h = pos + scheme + 1; h <= src.length && isHostChar(src.charAt(h - 1)); h++) {
    const end = finish(src, h);
    if (end >= 0) return end;
  }
  return -1;
}

function matchDomain(src: string, pos: number): number {
  let runEnd = pos;
  while (runEnd < src.length && isDomainChar(src.charAt(runEnd))) runEnd++;
  const run = src.slice(pos, runEnd);
  const labels = run.split('.');
  // Longest domain first; every label non-empty and the last one a known TLD.
  for (let count = labels.length; count >= 2; count--) {
    const used = labels.slice(0, count);
    if (used.some((label) => label === '')) continue;
    if (!TLDS.has(used[count - 1]!)) continue;
    const end = finish(src, pos + used.join('.').length);
    if (end >= 0) return end;
  }
  return -1;
}

function matchEmail(src: string, pos: number): number {
  let at = pos;
  while (at < src.length && isDomainChar(src.charAt(at))) at++;
  if (at === pos || src.charAt(at) !== '@') return -1;
  let end = at + 1;
  while (end < src.length && isDomainChar(src.charAt(end))) end++;
  for (let dot = src.lastIndexOf('.', end - 1); dot > at + 1; dot = src.lastIndexOf('.', dot - 1)) {
    let wordEnd = dot + 1;
    while (wordEnd < end && isWord(src.charAt(wordEnd))) wordEnd++;
    if (wordEnd > dot + 1 && endsHere(src, wordEnd)) return wordEnd;
  }
  return -1;
}

function matchBitcoin(src: string, pos: number): number {
  BITCOIN.lastIndex = pos;
  const m = BITCOIN.exec(src);
  return m !== null && endsHere(src, pos + m[0].length) ? pos + m[0].length : -1;
}

/** End of a bare URL starting at `pos`, or -1. */
export function matchAutolink(src: string, pos: number): number {
  if (pos > 0 && !isUrlBoundary(src.charCodeAt(pos - 1))) return -1;
  const first = src.charAt(pos);
  if (!isDomainChar(first)) return -1;
  for (const matcher of [matchHttp, matchDomain, matchEmail, matchBitcoin]) {
    const end = matcher(src, pos);
    if (end > pos) return end;
  }
  return -1;
}

export function autolink(state: StateInline, silent: boolean): boolean {
  const end = matchAutolink(state.src, state.pos);
  if (end < 0 || end > state.posMax) return false;
  if (!silent) {
    const url = state.src.slice(state.pos, end);
    const href = sanitizeUrl(url);
    if (href !== null) {
      const open = state.push('link_open', 'a', 1);
      open.attrs = [['href', relativizeRealmUrl(href, parseEnv(state.env).context.realmUrl)]];
    }
    const text = state.push('text', '', 0);
    text.content = url;
    text.meta = { atomic: true };
    if (href !== null) state.push('link_close', 'a', -1);
  }
  state.pos = end;
  return true;
}
