import models from './flutter-models.json';
import release from './flutter-models-release.json';

/** A field as the Flutter app's generated parser reads it (scripts/flutter-models.mjs). */
interface FieldSpec {
  required?: boolean;
  type: 'string' | 'number' | 'boolean' | 'enum' | 'list' | 'map' | 'object' | 'any';
  values?: (string | number)[];
  class?: string;
  of?: FieldSpec;
}

type Classes = Record<string, Record<string, FieldSpec>>;

/**
 * The app's parsers at two points: its current code (the commit `flutter-models.json` was taken from) and its last
 * release (`flutter-models-release.json`, the release tag), which is what people have installed. Answers must
 * parse with both.
 */
const MODEL_SETS: { name: string; classes: Classes }[] = [
  { name: models.commit.slice(0, 10), classes: models.classes as unknown as Classes },
  { name: release.commit, classes: release.classes as unknown as Classes },
];

/** The commit of zulip-flutter the current field list was taken from. */
export const FLUTTER_COMMIT = models.commit;
/** The release tag of the app whose field list is checked beside it. */
export const FLUTTER_RELEASE = release.commit;

function check(classes: Classes, value: unknown, spec: FieldSpec, path: string, errors: string[]): void {
  const got = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  switch (spec.type) {
    case 'any':
      return;
    case 'string':
    case 'number':
    case 'boolean':
      if (got !== spec.type) errors.push(`${path}: expected ${spec.type}, got ${got}`);
      return;
    case 'enum':
      if (!spec.values?.includes(value as string | number))
        errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(spec.values)}`);
      return;
    case 'list':
      if (got !== 'array') errors.push(`${path}: expected a list, got ${got}`);
      else (value as unknown[]).forEach((v, i) => check(classes, v, spec.of!, `${path}[${i}]`, errors));
      return;
    case 'map':
      if (got !== 'object') errors.push(`${path}: expected a map, got ${got}`);
      else for (const [k, v] of Object.entries(value as object)) check(classes, v, spec.of!, `${path}.${k}`, errors);
      return;
    case 'object':
      if (got !== 'object') errors.push(`${path}: expected an object, got ${got}`);
      else errors.push(...parseErrors(classes, spec.class!, value as Record<string, unknown>, path));
      return;
  }
}

/**
 * What would make the Flutter app's parser for `className` throw on `json`: required fields missing or null, and
 * values of the wrong type. Classes whose parser is hand-written (not generated) are not described: [] for them.
 */
export function flutterParseErrors(className: string, json: Record<string, unknown>, path = className): string[] {
  return MODEL_SETS.flatMap((set) => parseErrors(set.classes, className, json, path).map((e) => `[${set.name}] ${e}`));
}

function parseErrors(classes: Classes, className: string, json: Record<string, unknown>, path: string): string[] {
  const fields = classes[className];
  if (!fields) return [];
  const errors: string[] = [];
  for (const [key, spec] of Object.entries(fields)) {
    const value = json[key];
    if (value === undefined || value === null) {
      if (spec.required) errors.push(`${path}.${key}: required, missing`);
      continue;
    }
    check(classes, value, spec, `${path}.${key}`, errors);
  }
  return errors;
}

/** Whether the description has a parser for `className` (so a test cannot pass by naming a class that is absent). */
export function describesFlutterClass(className: string): boolean {
  return MODEL_SETS.every((set) => className in set.classes);
}
