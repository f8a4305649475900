import type { Json } from '../framework.js';
import { str } from './wild.js';

/**
 * More of Zulip's WildValue checks, for the fields a view insists on: a value that fails one is not the provider's
 * payload (the framework answers "Unable to parse request: Did X generate this event?").
 */

/** A dict (WildValue's `[key]`, `.items()` and `key in` work on dicts only). */
export function dict(value: unknown): Record<string, Json> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new TypeError('expected a dict');
  return value as Record<string, Json>;
}

/** A dict's items, in their order (WildValue's `.items()`). */
export function items(value: unknown): [string, Json][] {
  return Object.entries(dict(value));
}

/** WildValue's `.get(key, default)` of a dict: the value, or `fallback` when the key is not there. */
export function getOr(value: unknown, key: string, fallback: unknown = null): Json {
  const d = dict(value);
  return key in d ? d[key] : fallback;
}

/** check_string_in. */
export function oneOf(value: unknown, allowed: readonly string[]): string {
  const s = str(value);
  if (!allowed.includes(s)) throw new TypeError(`unexpected ${s}`);
  return s;
}

/** Django's URLValidator, roughly: an http(s) or ftp(s) URL with a host and no whitespace (check_url). */
export function url(value: unknown): string {
  const s = str(value);
  if (!/^(?:https?|ftps?):\/\/[^\s/?#]+\S*$/iu.test(s)) throw new TypeError('expected a URL');
  return s;
}

/** check_bool. */
export function bool(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new TypeError('expected a bool');
  return value;
}

/** check_union([check_int, check_float]): a number. */
export function num(value: unknown): number {
  if (typeof value !== 'number') throw new TypeError('expected a number');
  return value;
}
