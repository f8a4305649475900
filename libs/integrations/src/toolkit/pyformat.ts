import { pyRepr, pyStr } from './python.js';

/**
 * Python's str.format and the value rules Zulip's views lean on, so that a template can be written as Zulip writes
 * it ("{user} changed status of {subject} from {old} to {new}.") and print what Python prints: None for null, True
 * for true, `{:.2f}` and `{:,}` of numbers, `{!r}`, `{{` and `}}`. Also Python's truthiness and its ordering of str
 * (by code point), which JavaScript's defaults do not share.
 */

/** Python's bool(): None, False, 0, "", [] and {} are false. */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return Boolean(value);
}

/** Python's comparison of two str: by code point (JavaScript's `<` compares UTF-16 units). */
export function pyCompare(a: string, b: string): number {
  if (a === b) return 0;
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** Python's sorted() of a list of str. */
export function pySorted(items: Iterable<string>): string[] {
  return [...items].sort(pyCompare);
}

interface Spec {
  fill: string;
  align: string;
  sign: string;
  alternate: boolean;
  zero: boolean;
  width: number;
  grouping: string;
  precision: number | null;
  type: string;
}

const SPEC = /^(?:(.)?([<>=^]))?([-+ ])?(z)?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([bcdeEfFgGnosxX%])?$/su;

function parseSpec(spec: string): Spec {
  const m = SPEC.exec(spec);
  if (!m) throw new Error(`unsupported format spec ${spec}`);
  return {
    fill: m[1] ?? (m[6] && !m[2] ? '0' : ' '),
    align: m[2] ?? (m[6] ? '=' : ''),
    sign: m[3] ?? '-',
    alternate: m[5] !== undefined,
    zero: m[6] !== undefined,
    width: m[7] ? Number(m[7]) : 0,
    grouping: m[8] ?? '',
    precision: m[9] !== undefined ? Number(m[9]) : null,
    type: m[10] ?? '',
  };
}

/** Digits grouped by threes from the right (`{:,}`). */
function group(digits: string, separator: string): string {
  if (!separator) return digits;
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, separator);
}

/**
 * x.toFixed(p) with Python's rounding: JavaScript rounds an exact tie away from zero, Python to the even digit
 * (`'{:.0f}'.format(2.5)` is '2', `'{:.2f}'.format(0.125)` is '0.12').
 */
export function pyFixed(x: number, precision: number): string {
  const fixed = Math.abs(x).toFixed(precision);
  const exact = Math.abs(x).toFixed(Math.min(100, precision + 30));
  const tail = exact.slice(exact.length - 30);
  let out = fixed;
  if (/^50*$/.test(tail)) {
    // An exact tie: toFixed went up; go down instead when the kept digit would be odd.
    const down = exact.slice(0, exact.length - 30).replace(/\.$/, '');
    const lastDigit = Number(down[down.length - 1]);
    if (lastDigit % 2 === 0) out = down;
  }
  return x < 0 || Object.is(x, -0) ? `-${out}` : out;
}

function formatNumber(value: number, spec: Spec): string {
  let body: string;
  const negative = value < 0 || Object.is(value, -0);
  const abs = Math.abs(value);
  switch (spec.type) {
    case 'f':
    case 'F':
      body = pyFixed(abs, spec.precision ?? 6);
      break;
    case '%':
      body = `${pyFixed(abs * 100, spec.precision ?? 6)}%`;
      break;
    case 'e':
    case 'E': {
      const [mantissa, exp] = abs.toExponential(spec.precision ?? 6).split('e');
      const e = Number(exp);
      body = `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
      if (spec.type === 'E') body = body.toUpperCase();
      break;
    }
    case 'd':
    case 'n':
      body = String(Math.trunc(abs));
      break;
    case 'g':
    case '':
      if (spec.precision !== null) body = String(Number(abs.toPrecision(Math.max(spec.precision, 1))));
      else body = pyStr(abs);
      break;
    default:
      throw new Error(`unsupported number format ${spec.type}`);
  }
  if (spec.grouping) {
    const [int, frac] = body.split('.');
    body = group(int!, spec.grouping) + (frac !== undefined ? `.${frac}` : '');
  }
  const sign = negative ? '-' : spec.sign === '+' ? '+' : spec.sign === ' ' ? ' ' : '';
  return pad(sign, body, spec, '>');
}

function pad(sign: string, body: string, spec: Spec, defaultAlign: string): string {
  const length = Array.from(sign + body).length;
  if (length >= spec.width) return sign + body;
  const fill = spec.fill.repeat(spec.width - length);
  switch (spec.align || defaultAlign) {
    case '<':
      return sign + body + fill;
    case '^': {
      const half = Math.floor((spec.width - length) / 2);
      return spec.fill.repeat(half) + sign + body + spec.fill.repeat(spec.width - length - half);
    }
    case '=':
      return sign + fill + body;
    default:
      return fill + sign + body;
  }
}

/** Python's format(value, spec). */
export function pyFormatValue(value: unknown, spec: string): string {
  if (spec === '') return pyStr(value);
  const parsed = parseSpec(spec);
  if (typeof value === 'number' || typeof value === 'boolean') return formatNumber(Number(value), parsed);
  let text = pyStr(value);
  if (parsed.precision !== null) text = Array.from(text).slice(0, parsed.precision).join('');
  return pad('', text, parsed, '<');
}

/** Reads `name`, `0`, `name[key]` and `name.attr` from the arguments. */
function lookup(field: string, positional: readonly unknown[], named: Readonly<Record<string, unknown>>): unknown {
  const m = /^([^.[]*)(.*)$/s.exec(field)!;
  const head = m[1]!;
  let value: unknown = /^\d+$/.test(head) ? positional[Number(head)] : named[head];
  if (value === undefined && !(head in named) && !/^\d+$/.test(head)) throw new Error(`KeyError: '${head}'`);
  const rest = m[2]!;
  for (const part of rest.matchAll(/\.([^.[]+)|\[([^\]]*)\]/g)) {
    const key = part[1] ?? part[2]!;
    value = Array.isArray(value) && /^\d+$/.test(key) ? value[Number(key)] : (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * Python's `template.format(**values)`, or `template.format(*values)` for a list:
 * `pyFormat('{user} did {what}', { user, what })`.
 */
export function pyFormat(
  template: string,
  values: Readonly<Record<string, unknown>> | readonly unknown[] = {},
): string {
  const positional: readonly unknown[] = Array.isArray(values) ? values : [];
  const named: Readonly<Record<string, unknown>> = Array.isArray(values) ? {} : (values as Record<string, unknown>);
  let auto = 0;
  let out = '';
  for (let i = 0; i < template.length; i++) {
    const c = template[i]!;
    if (c === '{') {
      if (template[i + 1] === '{') {
        out += '{';
        i++;
        continue;
      }
      const end = template.indexOf('}', i);
      if (end < 0) throw new Error("Single '{' encountered in format string");
      const inner = template.slice(i + 1, end);
      const m = /^([^!:]*)(?:!([rsa]))?(?::(.*))?$/s.exec(inner)!;
      const field = m[1] === '' ? String(auto++) : m[1]!;
      let value = lookup(field, positional, named);
      if (m[2] === 'r' || m[2] === 'a') value = pyRepr(value);
      else if (m[2] === 's') value = pyStr(value);
      out += pyFormatValue(value, m[3] ?? '');
      i = end;
    } else if (c === '}') {
      if (template[i + 1] === '}') i++;
      out += '}';
    } else out += c;
  }
  return out;
}
