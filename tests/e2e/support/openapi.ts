import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

/**
 * Checks responses against Zulip's OpenAPI description (fixtures/zulip-openapi.yaml, feature level ~420), the way
 * Zulip's own test client validates every response. allOf branches are merged first (Zulip's schemas list
 * properties in one branch and forbid additional ones in another), and `nullable` becomes a JSON Schema null type.
 */

type Schema = Record<string, any>;

/** Fields docs/api.md and newer Zulip versions add beyond the feature-level-420 description. */
const NEWER_FIELDS = ['is_imported_stub', 'service_feature_level', 'service_version', 'service_merge_base'];

let spec: Schema | undefined;
const compiled = new Map<string, ValidateFunction | null>();
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });

function loadSpec(): Schema {
  spec ??= parse(
    readFileSync(join(__dirname, '..', '..', '..', 'gateway', 'openapi', 'zulip-openapi.yaml'), 'utf8'),
  ) as Schema;
  return spec;
}

function resolveRef(ref: string): Schema {
  const parts = ref.replace(/^#\//, '').split('/');
  let node: any = loadSpec();
  for (const part of parts) node = node[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  return node as Schema;
}

function normalise(schema: Schema | undefined, depth = 0): Schema {
  if (!schema || typeof schema !== 'object') return {};
  if (depth > 40) return {};
  if (schema.$ref) return normalise(resolveRef(schema.$ref), depth + 1);
  let out: Schema = { ...schema };
  if (out.allOf && (out.allOf as Schema[]).length === 1) {
    // A lone branch (e.g. `allOf: [$ref GroupSettingValue]` plus a description) is that schema, oneOf included.
    const { allOf, ...rest } = out;
    const branch = normalise((allOf as Schema[])[0], depth + 1);
    if (!branch.properties) return normaliseNullable({ ...rest, ...branch });
  }
  if (out.allOf) {
    const merged: Schema = { type: 'object', properties: {}, required: [] };
    for (const branch of out.allOf as Schema[]) {
      const b = normalise(branch, depth + 1);
      for (const [key, value] of Object.entries(b.properties ?? {})) {
        const existing = merged.properties[key];
        if (
          !existing ||
          Object.keys(existing).length === 0 ||
          (Object.keys(existing).length === 1 && existing.type === undefined)
        ) {
          merged.properties[key] = { ...(value as Schema), ...(existing?.nullable ? { nullable: true } : {}) };
        } else if ((value as Schema).nullable) {
          merged.properties[key] = { ...existing, nullable: true };
        }
      }
      merged.required = [...new Set([...(merged.required as string[]), ...(b.required ?? [])])];
      if (b.additionalProperties === false) merged.additionalProperties = false;
      else if (b.additionalProperties && typeof b.additionalProperties === 'object')
        merged.additionalProperties = b.additionalProperties;
    }
    const { allOf: _allOf, ...rest } = out;
    out = { ...rest, ...merged };
    // Properties merged from different branches were normalised already.
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Schema).map(([k, v]) => [k, normaliseNullable(v as Schema)]),
    );
    if (out.additionalProperties === false) for (const f of NEWER_FIELDS) out.properties[f] ??= {};
    return out;
  }
  if (out.properties) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties as Schema).map(([k, v]) => [k, normalise(v as Schema, depth + 1)]),
    );
    if (out.additionalProperties === false) for (const f of NEWER_FIELDS) (out.properties as Schema)[f] ??= {};
  }
  if (out.items) out.items = normalise(out.items as Schema, depth + 1);
  if (out.additionalProperties && typeof out.additionalProperties === 'object') {
    out.additionalProperties = normalise(out.additionalProperties as Schema, depth + 1);
  }
  for (const key of ['oneOf', 'anyOf'])
    if (out[key]) out[key] = (out[key] as Schema[]).map((s) => normalise(s, depth + 1));
  return normaliseNullable(out);
}

function normaliseNullable(schema: Schema): Schema {
  if (!schema.nullable) return schema;
  const { nullable: _n, ...rest } = schema;
  if (rest.enum) return { anyOf: [rest, { type: 'null' }] };
  if (typeof rest.type === 'string') return { ...rest, type: [rest.type, 'null'] };
  return { anyOf: [rest, { type: 'null' }] };
}

function findOperation(method: string, path: string): { template: string; operation: Schema } | undefined {
  const paths = loadSpec().paths as Record<string, Schema>;
  const clean = path.replace(/\?.*$/, '').replace(/^\/api\/v1/, '');
  for (const [template, item] of Object.entries(paths)) {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
    if (pattern.test(clean) && item[method.toLowerCase()])
      return { template, operation: item[method.toLowerCase()] as Schema };
  }
  return undefined;
}

/** True when the description covers this operation and status (so a validation was actually performed). */
export function describedBy(method: string, path: string, status: number): boolean {
  const op = findOperation(method, path);
  return Boolean(op && (op.operation.responses?.[String(status)] ?? op.operation.responses?.default));
}

/** Validation errors of `body` against the described response, or [] when it conforms. */
export function openApiErrors(method: string, path: string, status: number, body: unknown): string[] {
  const op = findOperation(method, path);
  if (!op) return [`no operation ${method} ${path} in the OpenAPI description`];
  const key = `${method} ${op.template} ${status}`;
  if (!compiled.has(key)) {
    const response = normalise(op.operation.responses?.[String(status)] ?? op.operation.responses?.default);
    const schema = response.content?.['application/json']?.schema as Schema | undefined;
    compiled.set(key, schema ? ajv.compile(normalise(schema)) : null);
  }
  const validate = compiled.get(key);
  if (!validate) return [`no JSON schema for ${key}`];
  if (validate(body)) return [];
  return (validate.errors ?? []).map(
    (e) => `${e.instancePath || '(root)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
  );
}

function exampleOf(schema: Schema | undefined, depth = 0): Schema | undefined {
  if (!schema || depth > 10) return undefined;
  if (schema.$ref) return exampleOf(resolveRef(schema.$ref as string), depth + 1);
  if (schema.example && typeof schema.example === 'object') return schema.example as Schema;
  for (const branch of (schema.allOf as Schema[] | undefined) ?? []) {
    const found = exampleOf(branch, depth + 1);
    if (found) return found;
  }
  return undefined;
}

const eventValidators = new Map<string, ValidateFunction[]>();

/**
 * Validation errors of one event against the branches of GET /events' event schema with the same type (and op),
 * or null when the description has no such event (newer than feature level ~420, or Confab's own name).
 */
export function eventSchemaErrors(event: Record<string, unknown>): string[] | null {
  const key = `${String(event.type)}/${typeof event.op === 'string' ? event.op : ''}`;
  if (!eventValidators.has(key)) {
    const branches = resolveRef('#/components/schemas/get_events_200_response_allOf_events_inner').oneOf as Schema[];
    const matching = branches.filter((branch) => {
      const example = exampleOf(branch);
      return example?.type === event.type && (event.op === undefined || example?.op === event.op);
    });
    eventValidators.set(
      key,
      matching.map((branch) => {
        const schema = normalise(branch);
        // `type` and `op` are allOf-of-strings the normaliser turns into objects; the branch was chosen by them.
        if (schema.properties)
          for (const field of ['type', 'op']) if (field in schema.properties) schema.properties[field] = {};
        return ajv.compile(schema);
      }),
    );
  }
  const validators = eventValidators.get(key)!;
  if (validators.length === 0) return null;
  let best: string[] | undefined;
  const type = String(event.type);
  for (const validate of validators) {
    if (validate(event)) return [];
    const errors = (validate.errors ?? []).map(
      (e) => `${type}${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
    );
    if (!best || errors.length < best.length) best = errors;
  }
  return best ?? [];
}
