/* eslint-disable @typescript-eslint/no-explicit-any -- walks Zulip's OpenAPI document, arbitrary JSON */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ServiceClient } from '@confab/http';
import type { Logger } from '@confab/logging';

/**
 * Confab's API description, served by the gateway at /api/openapi.json and as a page at /api/docs. The operations
 * are what the services say they serve (GET /internal/routes); descriptions and response schemas come from Zulip's
 * description where Confab implements the same operation.
 */

interface ListedRoute {
  method: string;
  path: string;
  auth: 'user' | 'human' | 'public' | 'service';
  params: { name: string; required: boolean; aliases: string[] }[];
}

type Json = Record<string, any>;

const ZULIP_SPEC = join(__dirname, '..', 'openapi', 'zulip-openapi.yaml');
const CACHE_MS = 60_000;

/** `/api/v1/drafts/{draft_id:int}` → `/drafts/{draft_id}` and its path parameters. */
function openApiPath(template: string): { path: string; pathParams: { name: string; type: string }[] } {
  const pathParams: { name: string; type: string }[] = [];
  const path = template
    .replace(/^\/api\/v1/, '')
    .replace(/\{([a-z_]+):(int|str|path)\}/g, (_m, name: string, kind: string) => {
      pathParams.push({ name, type: kind === 'int' ? 'integer' : 'string' });
      return `{${name}}`;
    });
  return { path, pathParams };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export class ApiDocs {
  private cached: { at: number; doc: Json } | undefined;
  private zulip: Promise<Json> | undefined;

  constructor(
    private readonly services: Record<string, string>,
    private readonly secret: string,
    private readonly version: string,
    private readonly log: Logger,
  ) {}

  private zulipSpec(): Promise<Json> {
    this.zulip ??= readFile(ZULIP_SPEC, 'utf8').then((text) => parse(text) as Json);
    return this.zulip;
  }

  /** Every service's routes; `complete` is false when one could not be asked (that service's part is missing). */
  private async listRoutes(): Promise<{ routes: { service: string; route: ListedRoute }[]; complete: boolean }> {
    let complete = true;
    const lists = await Promise.all(
      Object.entries(this.services).map(async ([service, url]) => {
        try {
          const client = new ServiceClient({ caller: 'gateway', baseUrl: url, secret: this.secret, timeoutMs: 10_000 });
          const body = await client.call('GET', '/routes', { parse: (b) => b as { routes?: ListedRoute[] } });
          return (body.routes ?? []).map((route) => ({ service, route }));
        } catch (err) {
          this.log.warn({ service, err: err instanceof Error ? err.message : err }, 'could not list routes');
          complete = false;
          return [];
        }
      }),
    );
    return { routes: lists.flat(), complete };
  }

  /** The OpenAPI 3 document (cached for a minute). */
  async document(): Promise<Json> {
    if (this.cached && Date.now() - this.cached.at < CACHE_MS) return this.cached.doc;
    const [{ routes, complete }, zulip] = await Promise.all([this.listRoutes(), this.zulipSpec()]);
    const paths: Json = {};
    for (const { service, route } of routes) {
      const { path, pathParams } = openApiPath(route.path);
      const method = route.method.toLowerCase();
      const known: Json | undefined = zulip.paths?.[path]?.[method];
      const describedParams = new Map<string, Json>();
      for (const p of (known?.parameters ?? []) as Json[]) {
        const resolved = p.$ref ? resolveRef(zulip, p.$ref) : p;
        if (resolved?.name) describedParams.set(resolved.name, resolved);
      }
      const bodyProps: Json =
        known?.requestBody?.content?.['application/x-www-form-urlencoded']?.schema?.properties ?? {};
      const described = (name: string) => describedParams.get(name)?.description ?? bodyProps[name]?.description;
      const parameters: Json[] = pathParams.map((p) => ({
        name: p.name,
        in: 'path',
        required: true,
        schema: { type: p.type },
        ...(described(p.name) ? { description: described(p.name) } : {}),
      }));
      const fields = route.params.map((p) => ({
        name: p.name,
        required: p.required,
        description: [described(p.name), p.aliases.length ? `Also accepted as ${p.aliases.join(', ')}.` : '']
          .filter(Boolean)
          .join('\n\n'),
      }));
      const operation: Json = {
        operationId: known?.operationId ?? `${method}${path.replace(/[^a-zA-Z0-9]+/g, '_')}`,
        summary: known?.summary ?? `${route.method} ${path}`,
        tags: known?.tags ?? [service],
        'x-confab-service': service,
        ...(known?.description ? { description: known.description } : {}),
        security: route.auth === 'public' ? [] : [{ basicAuth: [] }],
        responses: known?.responses ?? { '200': { description: 'Success envelope: `result`, `msg` and the data.' } },
      };
      if (route.method === 'GET' || route.method === 'DELETE') {
        operation.parameters = [
          ...parameters,
          ...fields.map((f) => ({ ...f, in: 'query', schema: { type: 'string' } })),
        ];
      } else {
        operation.parameters = parameters;
        if (fields.length) {
          operation.requestBody = {
            content: {
              'application/x-www-form-urlencoded': {
                schema: {
                  type: 'object',
                  properties: Object.fromEntries(
                    fields.map((f) => [f.name, { type: 'string', description: f.description }]),
                  ),
                  required: fields.filter((f) => f.required).map((f) => f.name),
                },
              },
            },
          };
        }
      }
      paths[path] = { ...paths[path], [method]: operation };
    }
    const doc: Json = {
      openapi: '3.0.1',
      info: {
        title: 'Confab API',
        version: this.version,
        description:
          "Confab's HTTP API, compatible with Zulip's REST API. Parameters are form fields; lists, objects, numbers and booleans are JSON inside the field.",
      },
      servers: [{ url: '/api/v1' }],
      security: [{ basicAuth: [] }],
      components: { ...zulip.components, securitySchemes: { basicAuth: { type: 'http', scheme: 'basic' } } },
      paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    };
    // A document missing a service that did not answer in time is served, but not kept: the next request asks again.
    if (complete) this.cached = { at: Date.now(), doc };
    return doc;
  }

  /** A browsable page: every operation with its parameters, grouped by tag. */
  async page(): Promise<string> {
    const doc = await this.document();
    const byTag = new Map<string, string[]>();
    for (const [path, item] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(item as Json)) {
        const params = [
          ...((op.parameters ?? []) as Json[]),
          ...Object.entries(
            op.requestBody?.content?.['application/x-www-form-urlencoded']?.schema?.properties ?? {},
          ).map(([name, schema]) => ({
            name,
            in: 'body',
            required: (
              op.requestBody.content['application/x-www-form-urlencoded'].schema.required as string[]
            ).includes(name),
            description: (schema as Json).description,
          })),
        ];
        const rows = params
          .map(
            (p) =>
              `<tr><td><code>${escapeHtml(p.name)}</code></td><td>${p.in}</td><td>${p.required ? 'yes' : ''}</td><td>${escapeHtml(String(p.description ?? ''))}</td></tr>`,
          )
          .join('');
        const html = `<details><summary><span class="m ${method}">${method.toUpperCase()}</span> <code>${escapeHtml(path)}</code> — ${escapeHtml(op.summary)}${op.security?.length === 0 ? ' <em>(no authentication)</em>' : ''}</summary>
<div class="op">${op.description ? `<pre>${escapeHtml(op.description)}</pre>` : ''}${rows ? `<table><tr><th>parameter</th><th>in</th><th>required</th><th>description</th></tr>${rows}</table>` : '<p>No parameters.</p>'}</div></details>`;
        const tag = (op.tags as string[])[0] ?? 'other';
        byTag.set(tag, [...(byTag.get(tag) ?? []), html]);
      }
    }
    const sections = [...byTag.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([tag, ops]) => `<h2>${escapeHtml(tag)}</h2>\n${ops.join('\n')}`)
      .join('\n');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Confab API</title>
<style>body{font-family:system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em}code{font-size:.95em}
details{border:1px solid #ddd;border-radius:6px;margin:.4em 0;padding:.4em .8em}summary{cursor:pointer}
.m{display:inline-block;min-width:4.5em;font-weight:600}.get{color:#1565c0}.post{color:#2e7d32}.patch{color:#ef6c00}.delete{color:#c62828}
pre{white-space:pre-wrap;background:#f7f7f7;padding:.6em}table{border-collapse:collapse;width:100%}td,th{border-top:1px solid #eee;padding:.3em;text-align:left;vertical-align:top}</style>
</head><body><h1>Confab API</h1><p>${escapeHtml(doc.info.description)} Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a>.</p>
${sections}</body></html>`;
  }
}

function resolveRef(root: Json, ref: string): Json | undefined {
  let node: any = root;
  for (const part of ref.replace(/^#\//, '').split('/')) node = node?.[part];
  return node as Json | undefined;
}
