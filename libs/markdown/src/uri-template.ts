/**
 * RFC 6570 URI templates (levels 1–4), as linkifiers use them: `https://example.com/{org}/{repo}/issues/{id}`.
 * Values are strings (a linkifier's named groups); an undefined value expands to nothing, as the RFC says.
 */

type Operator = '' | '+' | '#' | '.' | '/' | ';' | '?' | '&';

interface VarSpec {
  name: string;
  /** A `:n` prefix modifier. */
  prefix?: number;
  explode: boolean;
}

type Part = string | { op: Operator; vars: VarSpec[] };

const OPERATORS: Record<Operator, { first: string; sep: string; named: boolean; ifEmpty: string; reserved: boolean }> =
  {
    '': { first: '', sep: ',', named: false, ifEmpty: '', reserved: false },
    '+': { first: '', sep: ',', named: false, ifEmpty: '', reserved: true },
    '#': { first: '#', sep: ',', named: false, ifEmpty: '', reserved: true },
    '.': { first: '.', sep: '.', named: false, ifEmpty: '', reserved: false },
    '/': { first: '/', sep: '/', named: false, ifEmpty: '', reserved: false },
    ';': { first: ';', sep: ';', named: true, ifEmpty: '', reserved: false },
    '?': { first: '?', sep: '&', named: true, ifEmpty: '=', reserved: false },
    '&': { first: '&', sep: '&', named: true, ifEmpty: '=', reserved: false },
  };

const VARNAME = /^(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})(?:\.?(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2}))*$/;
const VARSPEC = /^(.+?)(?::([1-9][0-9]{0,3})|(\*))?$/;

/** The template's literal parts and expressions; null when it is not a valid RFC 6570 template. */
function parse(template: string): Part[] | null {
  const parts: Part[] = [];
  let pos = 0;
  while (pos < template.length) {
    const open = template.indexOf('{', pos);
    const close = template.indexOf('}', pos);
    if (close !== -1 && (open === -1 || close < open)) return null;
    if (open === -1) {
      parts.push(template.slice(pos));
      break;
    }
    if (open > pos) parts.push(template.slice(pos, open));
    const end = template.indexOf('}', open);
    if (end === -1) return null;
    let body = template.slice(open + 1, end);
    if (body.includes('{')) return null;
    let op: Operator = '';
    if ('+#./;?&'.includes(body.charAt(0)) && body !== '') {
      op = body.charAt(0) as Operator;
      body = body.slice(1);
    }
    const vars: VarSpec[] = [];
    for (const spec of body.split(',')) {
      const m = VARSPEC.exec(spec);
      if (!m || !VARNAME.test(m[1]!)) return null;
      vars.push({ name: m[1]!, ...(m[2] ? { prefix: Number(m[2]) } : {}), explode: m[3] === '*' });
    }
    parts.push({ op, vars });
    pos = end + 1;
  }
  return parts;
}

export function isValidTemplate(template: string): boolean {
  return parse(template) !== null;
}

/** Names of the template's variables (Zulip compares them with the pattern's named groups). */
export function templateVariables(template: string): Set<string> {
  const names = new Set<string>();
  for (const part of parse(template) ?? []) if (typeof part !== 'string') for (const v of part.vars) names.add(v.name);
  return names;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;
const RESERVED = /[:/?#[\]@!$&'()*+,;=]/;

function encode(value: string, allowReserved: boolean): string {
  let out = '';
  const chars = [...value];
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (UNRESERVED.test(ch) || (allowReserved && RESERVED.test(ch))) out += ch;
    else if (allowReserved && ch === '%' && /^[0-9A-Fa-f]{2}$/.test(chars.slice(i + 1, i + 3).join(''))) out += ch;
    else out += encodeURIComponent(ch).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  }
  return out;
}

/** Expands the template with these values; an invalid template expands to itself. */
export function expandTemplate(template: string, values: Readonly<Record<string, string | undefined>>): string {
  const parts = parse(template);
  if (parts === null) return template;
  return parts
    .map((part) => {
      if (typeof part === 'string') return part;
      const op = OPERATORS[part.op];
      const pieces: string[] = [];
      for (const v of part.vars) {
        const raw = values[v.name];
        if (raw === undefined) continue;
        const value = encode(v.prefix === undefined ? raw : [...raw].slice(0, v.prefix).join(''), op.reserved);
        if (!op.named) pieces.push(value);
        else pieces.push(value === '' ? `${v.name}${op.ifEmpty}` : `${v.name}=${value}`);
      }
      return pieces.length === 0 ? '' : op.first + pieces.join(op.sep);
    })
    .join('');
}
