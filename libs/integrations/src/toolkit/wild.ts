/**
 * Zulip's WildValue checks (`.tame(check_string)`, `check_int`, …) for the fields a view insists on: a payload
 * without them is not the provider's (the framework answers "Unable to parse request: Did X generate this event?").
 */

/** The value, which must be a str. */
export function str(value: unknown): string {
  if (typeof value !== 'string') throw new TypeError(`expected a string, got ${typeof value}`);
  return value;
}

/** The value, which must be a str or null (`check_none_or(check_string)`); absent reads as null. */
export function strOrNone(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return str(value);
}

/** The value, which must be an integer. */
export function int(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new TypeError('expected an integer');
  return value;
}

/** The value, which must be a list. */
export function list(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new TypeError('expected a list');
  return value;
}
