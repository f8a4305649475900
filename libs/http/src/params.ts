import { ConfabError, missingArgument } from '@confab/errors';
import { issueToError, ParamIssue, type Loc } from './param-issues.js';

/**
 * Request parameters with Zulip's semantics (zerver/lib/typed_endpoint.py): declared once per route, read from
 * the form body first and then the query string, with aliases, JSON-in-form-field values validated strictly,
 * and Zulip's exact error texts. Unknown keys are collected for `ignored_parameters_unsupported`.
 */

export { issueToError, ParamIssue, varName, type Loc } from './param-issues.js';

// ---------------------------------------------------------------------------------------------------------------
// Schemas for JSON values (Zulip's Json[...] parameters and nested objects), validated strictly like pydantic's
// strict mode: no coercion between numbers, booleans and strings.

export interface Schema<T> {
  parse(value: unknown, loc: Loc): T;
  /** Set on schemas whose key may be absent from an enclosing object. */
  readonly optionalKey?: boolean;
  /** What a value is, for the route listing (tests feed every string and integer parameter hostile values). */
  readonly kind?: ParamKind;
}

/** The shape of a parameter's value as GET /internal/routes lists it. */
export type ParamKind = 'string' | 'int' | 'bool' | 'enum' | 'json';

export type Infer<S> = S extends Schema<infer T> ? T : never;

interface StringOptions {
  maxLength?: number;
  minLength?: number;
  /** Strip surrounding whitespace before checking lengths (Zulip's strip_whitespace). */
  strip?: boolean;
  /** Strip, then refuse an empty result with "{var} cannot be blank" (Zulip's RequiredStringConstraint). */
  nonBlank?: boolean;
  /**
   * Let NUL through because the domain refuses it with Zulip's own text for this field (a topic's "Invalid
   * character in topic", a message's "Message must not contain null bytes"). Every other string refuses it here.
   */
  nulCheckedByDomain?: boolean;
}

/** PostgreSQL text cannot hold NUL: refused for every string parameter unless the domain words the refusal. */
const NUL_TEMPLATE = '{var_name} must not contain null bytes';

function checkString(value: string, loc: Loc, options: StringOptions): string {
  if (!options.nulCheckedByDomain && value.includes('\u0000')) {
    throw new ParamIssue('custom', loc, { template: NUL_TEMPLATE });
  }
  let text = value;
  if (options.strip || options.nonBlank) text = text.trim();
  if (options.nonBlank && text.length === 0) throw new ParamIssue('blank', loc);
  // Lengths are counted in code points, as Python counts characters.
  if (options.minLength !== undefined || options.maxLength !== undefined) {
    const length = [...text].length;
    if (options.minLength !== undefined && length < options.minLength) throw new ParamIssue('string_too_short', loc);
    if (options.maxLength !== undefined && length > options.maxLength) {
      throw new ParamIssue('string_too_long', loc, { maxLength: options.maxLength });
    }
  }
  return text;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Zulip's integers end where a database bigint ends: beyond int64 a value is "too large"/"too small", never a
 * database error. (JSON numbers this big are not exact in JavaScript; the bound is 2^63 either way.)
 */
const INT64_LIMIT = 2 ** 63;

export const t = {
  int(options: { min?: number; max?: number } = {}): Schema<number> {
    return {
      kind: 'int',
      parse(value, loc) {
        if (typeof value !== 'number' || !Number.isInteger(value)) throw new ParamIssue('int_type', loc);
        if (value >= INT64_LIMIT) throw new ParamIssue('too_large', loc);
        if (value < -INT64_LIMIT) throw new ParamIssue('too_small', loc);
        if (options.min !== undefined && value < options.min) throw new ParamIssue('too_small', loc);
        if (options.max !== undefined && value > options.max) throw new ParamIssue('too_large', loc);
        return value;
      },
    };
  },

  float(): Schema<number> {
    return {
      parse(value, loc) {
        if (typeof value !== 'number' || !Number.isFinite(value)) throw new ParamIssue('float_type', loc);
        return value;
      },
    };
  },

  bool(): Schema<boolean> {
    return {
      kind: 'bool',
      parse(value, loc) {
        if (typeof value !== 'boolean') throw new ParamIssue('bool_type', loc);
        return value;
      },
    };
  },

  string(options: StringOptions = {}): Schema<string> {
    return {
      kind: 'string',
      parse(value, loc) {
        if (typeof value !== 'string') throw new ParamIssue('string_type', loc);
        return checkString(value, loc, options);
      },
    };
  },

  literal<const V extends readonly (string | number | boolean)[]>(...values: V): Schema<V[number]> {
    return {
      parse(value, loc) {
        if (!values.includes(value as V[number])) throw new ParamIssue('literal_error', loc);
        return value as V[number];
      },
    };
  },

  list<T>(item: Schema<T>, options: { maxLength?: number } = {}): Schema<T[]> {
    return {
      parse(value, loc) {
        if (!Array.isArray(value)) throw new ParamIssue('list_type', loc);
        if (options.maxLength !== undefined && value.length > options.maxLength) {
          throw new ParamIssue('custom', loc, {
            template: `{var_name} is too long (limit: ${options.maxLength} items)`,
          });
        }
        return value.map((element, index) => item.parse(element, [...loc, index]));
      },
    };
  },

  /** A JSON object; unknown keys are refused unless `extra: 'ignore'`. */
  object<S extends Record<string, Schema<unknown>>>(
    shape: S,
    options: { extra?: 'forbid' | 'ignore' } = {},
  ): Schema<{ [K in keyof S]: Infer<S[K]> }> {
    const extra = options.extra ?? 'forbid';
    return {
      parse(value, loc) {
        if (!isPlainObject(value)) throw new ParamIssue('dict_type', loc);
        const out: Record<string, unknown> = {};
        for (const [key, schema] of Object.entries(shape)) {
          if (!(key in value) || value[key] === undefined) {
            if (schema.optionalKey) {
              out[key] = schema.parse(undefined, [...loc, key]);
              continue;
            }
            throw new ParamIssue('missing', [...loc, key]);
          }
          out[key] = schema.parse(value[key], [...loc, key]);
        }
        if (extra === 'forbid') {
          for (const key of Object.keys(value)) {
            if (!(key in shape)) throw new ParamIssue('extra_forbidden', [...loc, key], { argument: key });
          }
        }
        return out as { [K in keyof S]: Infer<S[K]> };
      },
    };
  },

  /** A key that may be absent from its object (yielding undefined, or the default when given). */
  optional<T, D extends T | undefined = undefined>(schema: Schema<T>, defaultValue?: D): Schema<T | D> {
    return {
      optionalKey: true,
      kind: schema.kind,
      parse(value, loc) {
        if (value === undefined) return defaultValue as D;
        return schema.parse(value, loc);
      },
    };
  },

  nullable<T>(schema: Schema<T>): Schema<T | null> {
    return {
      optionalKey: schema.optionalKey,
      kind: schema.kind,
      parse(value, loc) {
        return value === null ? null : schema.parse(value, loc);
      },
    };
  },

  /** The first member that accepts the value wins; otherwise the first member's complaint is reported. */
  union<A, B>(a: Schema<A>, b: Schema<B>): Schema<A | B> {
    return {
      parse(value, loc) {
        try {
          return a.parse(value, loc);
        } catch (first) {
          try {
            return b.parse(value, loc);
          } catch {
            throw first;
          }
        }
      },
    };
  },

  /** Adds a check of its own; `check` returns an error template (with {var_name}) or nothing. */
  refine<T>(schema: Schema<T>, check: (value: T) => string | undefined): Schema<T> {
    return {
      optionalKey: schema.optionalKey,
      kind: schema.kind,
      parse(value, loc) {
        const parsed = schema.parse(value, loc);
        const template = check(parsed);
        if (template !== undefined) throw new ParamIssue('custom', loc, { template });
        return parsed;
      },
    };
  },
};

// ---------------------------------------------------------------------------------------------------------------
// Request-level parameters: how a named form field (or query-string key) becomes a typed value.

interface ParamOptions<T> {
  required: boolean;
  defaultValue?: T;
  aliases: readonly string[];
  kind: ParamKind;
}

export class Param<T> {
  constructor(
    /** Parses the raw text of the field. */
    readonly parseRaw: (raw: string) => T,
    readonly options: ParamOptions<T> = { required: true, aliases: [], kind: 'json' },
  ) {}

  optional(): Param<T | undefined> {
    return new Param<T | undefined>(this.parseRaw, { ...this.options, required: false, defaultValue: undefined });
  }

  default(value: T): Param<T> {
    return new Param<T>(this.parseRaw, { ...this.options, required: false, defaultValue: value });
  }

  /** Other names a client may send this parameter under (e.g. `subject` for `topic`). */
  alias(...names: string[]): Param<T> {
    return new Param<T>(this.parseRaw, { ...this.options, aliases: [...this.options.aliases, ...names] });
  }
}

export type ParamDefs = Record<string, Param<unknown>>;
export type ParamValues<P extends ParamDefs> = { [K in keyof P]: P[K] extends Param<infer T> ? T : never };

function parseJsonText(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw new ParamIssue('json_invalid', []);
  }
}

export const p = {
  /** A plain string field, taken as sent (Zulip's `str`). */
  string(options: StringOptions = {}): Param<string> {
    return new Param((raw) => checkString(raw, [], options), { required: true, aliases: [], kind: 'string' });
  },

  /** A plain string field restricted to a set of values; anything else is `Invalid {name}`. */
  enum<const V extends readonly string[]>(...values: V): Param<V[number]> {
    return new Param(
      (raw) => {
        if (!values.includes(raw)) throw new ParamIssue('literal_error', []);
        return raw;
      },
      { required: true, aliases: [], kind: 'enum' },
    );
  },

  /** A JSON value inside the form field (Zulip's `Json[...]`): `true`, `12`, `[1,2]`, `{"new": 3}`. */
  json<T>(schema: Schema<T>): Param<T> {
    return new Param((raw) => schema.parse(parseJsonText(raw), []), {
      required: true,
      aliases: [],
      kind: schema.kind ?? 'json',
    });
  },

  // Shorthands for the most common JSON parameters.
  int(options: { min?: number; max?: number } = {}): Param<number> {
    return p.json(t.int(options));
  },
  bool(): Param<boolean> {
    return p.json(t.bool());
  },
  intList(): Param<number[]> {
    return p.json(t.list(t.int()));
  },
};

/** Where parameter values come from: the parsed body and the query string (body wins, as in Django). */
export interface ParamSource {
  body: ReadonlyMap<string, string>;
  query: ReadonlyMap<string, string>;
}

/**
 * Parses declared parameters in declaration order (the first problem is reported) and records which request
 * keys were consumed, so the caller can list the rest in `ignored_parameters_unsupported`.
 */
export function parseParams<P extends ParamDefs>(
  defs: P,
  source: ParamSource,
): { values: ParamValues<P>; used: Set<string> } {
  const values: Record<string, unknown> = {};
  const used = new Set<string>();
  for (const [name, def] of Object.entries(defs)) {
    let aliasUsed: string | undefined;
    let raw: string | undefined;
    for (const candidate of [name, ...def.options.aliases]) {
      const found = source.body.has(candidate) ? source.body.get(candidate) : source.query.get(candidate);
      if (found === undefined) continue;
      if (aliasUsed !== undefined) {
        throw new ConfabError(`Can't decide between '${aliasUsed}' and '${candidate}' arguments`, {
          code: 'REQUEST_CONFUSING_VAR',
          data: { var_name1: aliasUsed, var_name2: candidate },
        });
      }
      aliasUsed = candidate;
      raw = found;
    }
    if (aliasUsed === undefined || raw === undefined) {
      if (def.options.required) throw missingArgument(name);
      values[name] = def.options.defaultValue;
      continue;
    }
    used.add(aliasUsed);
    try {
      values[name] = def.parseRaw(raw);
    } catch (err) {
      if (err instanceof ParamIssue) throw issueToError(aliasUsed, err);
      throw err;
    }
  }
  return { values: values as ParamValues<P>, used };
}

/** Request keys the endpoint did not consume, sorted, as Zulip reports them. */
export function ignoredParameters(source: ParamSource, used: ReadonlySet<string>): string[] {
  const keys = new Set<string>([...source.body.keys(), ...source.query.keys()]);
  return [...keys].filter((key) => !used.has(key)).sort();
}

/** Validates a JSON value (e.g. an internal request body) against a schema, with Zulip-style messages. */
export function parseValue<T>(schema: Schema<T>, value: unknown, name: string): T {
  try {
    return schema.parse(value, []);
  } catch (err) {
    if (err instanceof ParamIssue) throw issueToError(name, err);
    throw err;
  }
}
