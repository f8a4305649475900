import { serviceToken } from '@confab/devkit';
import { system } from './system';

export interface ListedRoute {
  service: string;
  method: string;
  path: string;
  auth: 'user' | 'human' | 'public' | 'service';
  /** `kind` is how the parameter is read: a plain string, a JSON integer, a boolean, one of a set, other JSON. */
  params: { name: string; required: boolean; aliases: string[]; kind: 'string' | 'int' | 'bool' | 'enum' | 'json' }[];
}

/** Every public route of every running service, as the services themselves list them (GET /internal/routes). */
export async function allRoutes(): Promise<ListedRoute[]> {
  const out: ListedRoute[] = [];
  for (const [service, url] of Object.entries(system().serviceUrls)) {
    if (service === 'gateway') continue;
    const response = await fetch(`${url}/internal/routes`, {
      headers: { 'x-confab-identity': serviceToken(system()) },
    });
    if (response.status !== 200) throw new Error(`${service} does not list its routes (${response.status})`);
    const body = (await response.json()) as { routes: Omit<ListedRoute, 'service'>[] };
    out.push(...body.routes.map((r) => ({ ...r, service })));
  }
  return out;
}

/** A concrete path for a template: ints become `id`, strings and paths a harmless word. */
export function concretePath(template: string, id: number | string = 1): string {
  return template.replace(/\{[a-z_]+:int\}/g, String(id)).replace(/\{[a-z_]+:(str|path)\}/g, 'x');
}
