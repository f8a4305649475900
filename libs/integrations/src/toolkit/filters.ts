import { ConfabError } from '@confab/errors';

/**
 * Zulip's generic event filtering (check_send_webhook_message): `only_events` and `exclude_events`, JSON lists of
 * Unix shell-style patterns (fnmatch), matched against a message's event type.
 */

/** Python's fnmatch.fnmatchcase: `*`, `?`, `[seq]` and `[!seq]`, anchored, case-sensitive. */
export function fnmatch(name: string, pattern: string): boolean {
  return patternRegex(pattern).test(name);
}

const cache = new Map<string, RegExp>();

function patternRegex(pattern: string): RegExp {
  let regex = cache.get(pattern);
  if (regex) return regex;
  let out = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*') out += '.*';
    else if (c === '?') out += '.';
    else if (c === '[') {
      let j = i + 1;
      if (pattern[j] === '!') j++;
      if (pattern[j] === ']') j++;
      while (j < pattern.length && pattern[j] !== ']') j++;
      if (j >= pattern.length) {
        out += '\\[';
        continue;
      }
      let set = pattern.slice(i + 1, j).replace(/\\/g, '\\\\');
      if (set.startsWith('!')) set = `^${set.slice(1)}`;
      else if (set.startsWith('^')) set = `\\${set}`;
      out += `[${set}]`;
      i = j;
    } else out += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  regex = new RegExp(`^${out}$`, 's');
  if (cache.size < 1000) cache.set(pattern, regex);
  return regex;
}

/** A JSON list of strings from a parameter, with Zulip's texts for what is not one. */
function patternList(params: ReadonlyMap<string, string>, name: string): string[] | null {
  const raw = params.get(name);
  if (raw === undefined) return null;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new ConfabError(`${name} is not valid JSON`);
  }
  if (!Array.isArray(value)) throw new ConfabError(`${name} is not a list`);
  value.forEach((item, i) => {
    if (typeof item !== 'string') throw new ConfabError(`${name}[${i}] is not a string`);
  });
  return value as string[];
}

export interface EventFilters {
  /** Whether a message of this event type is posted. */
  admits(eventType: string): boolean;
}

/** The request's `only_events` and `exclude_events`; read when a message with an event type is first checked. */
export function eventFilters(params: ReadonlyMap<string, string>): EventFilters {
  let parsed: { only: string[] | null; exclude: string[] | null } | undefined;
  return {
    admits(eventType) {
      parsed ??= { only: patternList(params, 'only_events'), exclude: patternList(params, 'exclude_events') };
      if (parsed.only !== null && parsed.only.every((p) => !fnmatch(eventType, p))) return false;
      if (parsed.exclude !== null && parsed.exclude.some((p) => fnmatch(eventType, p))) return false;
      return true;
    },
  };
}
