import type { StateInline } from 'markdown-it';
import { parseEnv } from '../env.js';
import { matchAutolink } from './autolink.js';
import { matchChannelLink } from './channels.js';
import { matchCodeSpan } from './code.js';
import { matchLink } from './links.js';
import { matchInlineMath } from './math.js';
import { matchGroupMention, matchUserMention } from './mentions.js';
import { matchTimestamp } from './timestamp.js';

// Zulip matches emphasis after code, mentions, math and links, over the whole text: precompute per scope.

const STRONG_EM = /\*\*\*(?!\s)([^*^\n]+)(?<!\s)\*\*\*/g;
const STRONG = /\*\*([^\n]+?)\*\*/g;
const EMPHASIS = /\*(?!\s)([^*^\n]+)(?<!\s)\*/g;
const STRIKETHROUGH = /(?<!~)~~([^~\n]+?)~~(?!~)/g;
const OPAQUE = '\u0000';

type Ranges = Map<number, number>;

interface Matches {
  strongEm: Ranges;
  strong: Ranges;
  em: Ranges;
  del: Ranges;
}

interface Scope {
  start: number;
  end: number;
  matches?: Matches;
  /** Set while the table is computed: link-label scanning re-enters the inline rules. */
  computing?: boolean;
}

const scopes = new WeakMap<StateInline, Scope[]>();

function mask(text: string, offset: number, ranges: Iterable<[number, number]>): string {
  let out = text;
  for (const [start, end] of ranges) {
    out = out.slice(0, start - offset) + OPAQUE.repeat(end - start) + out.slice(end - offset);
  }
  return out;
}

function scan(re: RegExp, text: string, offset: number): Ranges {
  const found: Ranges = new Map();
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) found.set(offset + m.index, offset + re.lastIndex);
  return found;
}

/** Spans of constructs that outrank emphasis, found left to right within `[start, end)`. */
function opaqueSpans(state: StateInline, start: number, end: number, skip: Ranges): Ranges {
  const env = parseEnv(state.env);
  const { src } = state;
  const spans: Ranges = new Map();
  const oldPosMax = state.posMax;
  state.posMax = end;
  for (let p = start; p < end;) {
    const skipped = skip.get(p);
    if (skipped !== undefined) {
      p = skipped;
      continue;
    }
    let found: number;
    switch (src.charCodeAt(p)) {
      case 0x40 /* @ */:
        found = Math.max(matchUserMention(src, p, env), matchGroupMention(src, p, env));
        break;
      case 0x23 /* # */:
        found = matchChannelLink(src, p, env);
        break;
      case 0x24 /* $ */: {
        const math = matchInlineMath(src, p);
        found = math === null ? -1 : p + math[0].length;
        break;
      }
      case 0x5b /* [ */:
        found = matchLink(state, p);
        break;
      case 0x3c /* < */:
        found = matchTimestamp(src, p);
        break;
      default:
        found = matchAutolink(src, p);
    }
    if (found > p && found <= end) {
      spans.set(p, found);
      p = found;
    } else {
      p++;
    }
  }
  state.posMax = oldPosMax;
  return spans;
}

function computeMatches(state: StateInline, start: number, end: number): Matches {
  const text = state.src.slice(start, end);
  const code: Ranges = new Map();
  for (let p = start; p < end; p++) {
    const close = matchCodeSpan(state.src, p, end);
    if (close > p) {
      code.set(p, close);
      p = close - 1;
    }
  }
  const strongEm = scan(STRONG_EM, mask(text, start, code), start);
  const outranking = new Map([...code, ...strongEm]);
  for (const [s, e] of opaqueSpans(state, start, end, outranking)) outranking.set(s, e);
  const withoutStrong = mask(text, start, outranking);
  const strong = scan(STRONG, withoutStrong, start);
  const withoutEm = mask(withoutStrong, start, strong);
  const em = scan(EMPHASIS, withoutEm, start);
  const del = scan(STRIKETHROUGH, mask(withoutEm, start, em), start);
  return { strongEm, strong, em, del };
}

function currentScope(state: StateInline): Scope {
  let stack = scopes.get(state);
  if (stack === undefined) {
    stack = [{ start: 0, end: state.src.length }];
    scopes.set(state, stack);
  }
  return stack[stack.length - 1]!;
}

function matchesFor(state: StateInline): Matches | undefined {
  const scope = currentScope(state);
  if (scope.computing === true) return undefined;
  if (scope.matches === undefined) {
    scope.computing = true;
    scope.matches = computeMatches(state, scope.start, scope.end);
    scope.computing = false;
    // Link labels were scanned without emphasis; forget those cached scans.
    state.cache = {};
  }
  return scope.matches;
}

/** Emits `tags` around the content `[from, to)`, parsed as inline Markdown in its own scope. */
function wrap(state: StateInline, tags: readonly string[], from: number, to: number, end: number): void {
  for (const tag of tags) state.push(`${tag}_open`, tag, 1);
  const oldPosMax = state.posMax;
  const stack = scopes.get(state)!;
  stack.push({ start: from, end: to });
  state.pos = from;
  state.posMax = to;
  state.md.inline.tokenize(state);
  state.posMax = oldPosMax;
  stack.pop();
  for (const tag of [...tags].reverse()) state.push(`${tag}_close`, tag, -1);
  state.pos = end;
}

/** `***strong em***`, `**strong**` and `*em*` (Zulip has no `_` emphasis). */
export function emphasis(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x2a /* * */) return false;
  const matches = matchesFor(state);
  if (matches === undefined) return false;
  const { strongEm, strong, em } = matches;
  const pos = state.pos;
  let tags: string[];
  let width: number;
  let end = strongEm.get(pos);
  if (end !== undefined) {
    [tags, width] = [['strong', 'em'], 3];
  } else if ((end = strong.get(pos)) !== undefined) {
    [tags, width] = [['strong'], 2];
  } else if ((end = em.get(pos)) !== undefined) {
    [tags, width] = [['em'], 1];
  } else {
    return false;
  }
  if (end > state.posMax) return false;
  if (silent) state.pos = end;
  else wrap(state, tags, pos + width, end - width, end);
  return true;
}

/** `~~strikethrough~~`. */
export function strikethrough(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x7e /* ~ */) return false;
  const pos = state.pos;
  const end = matchesFor(state)?.del.get(pos);
  if (end === undefined || end > state.posMax) return false;
  if (silent) state.pos = end;
  else wrap(state, ['del'], pos + 2, end - 2, end);
  return true;
}
