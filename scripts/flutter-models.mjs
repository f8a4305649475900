#!/usr/bin/env node
// Derives what the Zulip Flutter app requires of the server's JSON from its generated parsers
// (lib/api/model/*.g.dart and lib/api/route/*.g.dart, json_serializable output): for each class, each key it reads, whether a missing or null
// value makes parsing fail, and the type it casts to. tests/e2e/flutter_app.e2e.spec.ts checks Confab's answers
// against the result, committed as tests/e2e/support/flutter-models.json.
//   node scripts/flutter-models.mjs <zulip-flutter checkout> [commit] > tests/e2e/support/flutter-models.json
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = process.argv[2];
if (!root) {
  console.error('usage: node scripts/flutter-models.mjs <zulip-flutter checkout>');
  process.exit(2);
}
const sources = ['model', 'route'].flatMap((sub) => {
  const dir = join(root, 'lib', 'api', sub);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.g.dart'))
    .map((f) => readFileSync(join(dir, f), 'utf8'));
});
const text = sources.join('\n');

/** `_$XEnumMap = { ...: value, ... }` → the JSON values the app accepts. */
const enums = {};
for (const m of text.matchAll(/const _\$(\w+)EnumMap = \{([\s\S]*?)\};/g)) {
  enums[m[1]] = [...m[2].matchAll(/:\s*('([^']*)'|-?\d+)\s*,/g)].map((v) => (v[2] !== undefined ? v[2] : Number(v[1])));
}

/** Splits a constructor's argument list at top-level commas. */
function topLevelArgs(body) {
  const args = [];
  let depth = 0;
  let current = '';
  let quote = null;
  for (const ch of body) {
    if (quote) {
      current += ch;
      if (ch === quote) quote = null;
      continue;
    }
    if (ch === "'" || ch === '"') quote = ch;
    if ('([{'.includes(ch)) depth++;
    if (')]}'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      if (current.trim()) args.push(current.trim());
      current = '';
    } else current += ch;
  }
  if (current.trim()) args.push(current.trim());
  return args;
}

/** An enum's accepted JSON values; with an `unknownValue` the app takes any value of the same JSON type. */
function enumType(expr) {
  const name = /\$enumDecode(?:Nullable)?\(\s*_\$(\w+)EnumMap/.exec(expr)?.[1];
  if (!name) return null;
  const values = enums[name] ?? [];
  if (/unknownValue:/.test(expr)) return { type: typeof values[0] === 'number' ? 'number' : 'string' };
  return { type: 'enum', values };
}

function fieldType(expr) {
  const cls = (re) => re.exec(expr)?.[1];
  // A custom reader (`_readColor(json, 'color')`) converts the JSON value first: only its presence is known.
  if (/\b_read\w*\(\s*json,/.test(expr) && !/as List<dynamic>/.test(expr)) return { type: 'any' };
  if (/as List<dynamic>/.test(expr)) {
    const element = enumType(expr);
    if (element) return { type: 'list', of: element };
    const of = cls(/(\w+)\.fromJson\(\s*e as Map/);
    if (of) return { type: 'list', of: { type: 'object', class: of } };
    if (/e as String/.test(expr)) return { type: 'list', of: { type: 'string' } };
    if (/e as num/.test(expr)) return { type: 'list', of: { type: 'number' } };
    return { type: 'list', of: { type: 'any' } };
  }
  if (/as Map<String, dynamic>\)\??\.map\(/.test(expr)) {
    const of = cls(/(\w+)\.fromJson\(\s*e as Map/);
    if (of) return { type: 'map', of: { type: 'object', class: of } };
    if (/e as String/.test(expr)) return { type: 'map', of: { type: 'string' } };
    if (/e as num/.test(expr)) return { type: 'map', of: { type: 'number' } };
    return { type: 'map', of: { type: 'any' } };
  }
  const asEnum = enumType(expr);
  if (asEnum) return asEnum;
  const object = cls(/(\w+)\.fromJson\(\s*json\[/);
  if (object && object !== 'GroupSettingValue') return { type: 'object', class: object };
  if (/as String/.test(expr)) return { type: 'string' };
  if (/as num/.test(expr)) return { type: 'number' };
  if (/as bool/.test(expr)) return { type: 'boolean' };
  return { type: 'any' };
}

const classes = {};
for (const m of text.matchAll(/_\$(\w+)FromJson\(\s*Map<String, dynamic> json,?\s*\) =>\s*\w+(?:\.\w+)?\(/g)) {
  // The constructor call's arguments: from the opening parenthesis to its match.
  let depth = 1;
  let i = m.index + m[0].length;
  const start = i;
  while (depth > 0 && i < text.length) {
    if (text[i] === '(') depth++;
    if (text[i] === ')') depth--;
    i++;
  }
  const fields = {};
  for (const arg of topLevelArgs(text.slice(start, i - 1))) {
    const expr = arg.slice(arg.indexOf(':') + 1);
    const key = /json\['(\w+)'\]/.exec(expr)?.[1] ?? /\(\s*json,\s*'(\w+)'\s*\)/.exec(expr)?.[1];
    if (!key) continue;
    // A custom reader may compute the value from other keys (a message's `conversation`), and a hand-written
    // converter (`_recipientIdsFromJson`) may accept null: for those, only the type is unknown, not required.
    const reader =
      (/\b_read\w*\(\s*json,/.test(expr) && !/as List<dynamic>/.test(expr)) || /\b_\w+FromJson\(\s*json\[/.test(expr);
    const optional =
      reader ||
      /as [\w<>, ]+\?/.test(expr) ||
      /== null/.test(expr) ||
      /\$enumDecodeNullable/.test(expr) ||
      /\?\?/.test(expr);
    const cast = /as String\b/.test(expr) ? 'string' : /as num\b/.test(expr) ? 'number' : undefined;
    fields[key] = { required: !optional, ...fieldType(expr), cast };
  }
  classes[m[1]] = fields;
}

const commit = process.argv[3] ?? null;
const source = 'zulip/zulip-flutter lib/api/{model,route}/*.g.dart';
// Value classes with hand-written parsers (TopicName.fromJson(json['topic'] as String)) are known by their cast.
for (const fields of Object.values(classes)) {
  for (const field of Object.values(fields).flatMap((f) => [f, f.of].filter(Boolean))) {
    if (field.type === 'object' && !(field.class in classes)) {
      delete field.class;
      field.type = field.cast ?? 'any';
    }
    delete field.cast;
  }
}

process.stdout.write(`${JSON.stringify({ source, commit, classes }, null, 2)}\n`);
