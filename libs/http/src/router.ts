import type { IncomingMessage, ServerResponse } from 'node:http';
import { notFound } from '@confab/errors';
import type { Identity, ServiceIdentity, UserIdentity } from '@confab/identity';
import type { Logger } from '@confab/logging';
import type { ParsedBody } from './body.js';
import type { ParamDefs, ParamValues } from './params.js';
import { parseRequest, type EndpointShape } from './service-client.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD';

/**
 * Who may call a route: `user` any authenticated user or bot, `human` users but not bots (Zulip's
 * @human_users_only), `public` anyone who came through the gateway, `service` other Confab processes.
 */
export type AuthMode = 'user' | 'human' | 'public' | 'service';

/** `/drafts/{draft_id:int}` → `{ draft_id: number }`; `str` and `path` (may contain slashes) give strings. */
export type PathParams<S extends string> = S extends `${string}{${infer Name}:${infer Kind}}${infer Rest}`
  ? { [K in Name]: Kind extends 'int' ? number : string } & PathParams<Rest>
  : unknown;

export type IdentityFor<A extends AuthMode> = A extends 'user' | 'human'
  ? UserIdentity
  : A extends 'service'
    ? ServiceIdentity
    : Identity;

export interface RouteContext<Path extends string, P extends ParamDefs, A extends AuthMode> {
  params: ParamValues<P>;
  path: PathParams<Path>;
  identity: IdentityFor<A>;
  body: ParsedBody;
  /** The bare node request and response: the service router serves its routes without express. */
  req: IncomingMessage;
  res: ServerResponse;
  log: Logger;
  requestId: string;
  /** The request's parameters this route does not take, sorted (`ignored_parameters_unsupported` of a RawResponse). */
  ignored: () => string[];
}

/** A response other than the JSON success envelope (an HTML page, a redirect, a file). */
export class RawResponse {
  constructor(
    readonly status: number,
    readonly body: string | Buffer,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** The data fields of a success envelope (`result` and `msg` are added). */
export type RouteResult = Record<string, unknown> | RawResponse;

export interface RouteSpec<Path extends string, P extends ParamDefs, A extends AuthMode> {
  method: HttpMethod;
  path: Path;
  auth: A;
  params?: P;
  /** Accept an application/json body (internal endpoints). */
  json?: boolean;
  /** Keep the body's bytes in `body.raw`, whatever its type (incoming webhooks read it themselves). */
  rawBody?: boolean;
  /** Skip parameter parsing and ignored-parameter reporting (e.g. pages and uploads that read the body). */
  handler(ctx: RouteContext<Path, P, A>): Promise<RouteResult> | RouteResult;
}

/** A route with its types erased, as the router stores it. */
export interface Route {
  method: HttpMethod;
  path: string;
  auth: AuthMode;
  params: ParamDefs;
  json: boolean;
  rawBody: boolean;
  handler(ctx: RouteContext<string, ParamDefs, AuthMode>): Promise<RouteResult> | RouteResult;
}

/** Declares a route; parameter, path and identity types are inferred from the declaration. */
export function route<
  const Path extends string,
  P extends ParamDefs = Record<never, never>,
  A extends AuthMode = 'user',
>(spec: RouteSpec<Path, P, A>): Route {
  return {
    method: spec.method,
    path: spec.path,
    auth: spec.auth,
    params: spec.params ?? {},
    json: spec.json ?? false,
    rawBody: spec.rawBody ?? false,
    handler: (ctx) => spec.handler(ctx as unknown as RouteContext<Path, P, A>),
  };
}

/**
 * A route serving an endpoint of the internal contracts (`internal.endpoints` of @confab/events): only other Confab
 * processes may call it, and its handler gets the JSON body parsed with the schema its callers build it with.
 */
export function internalRoute<Req, Res extends Record<string, unknown>>(
  endpoint: EndpointShape<Req, Res>,
  handler: (input: Req, ctx: { requestId: string; log: Logger }) => Promise<Res>,
): Route {
  return {
    method: endpoint.method as HttpMethod,
    path: endpoint.path,
    auth: 'service',
    params: {},
    json: true,
    rawBody: false,
    handler: (ctx) => handler(parseRequest(endpoint, ctx.body.json), { requestId: ctx.requestId, log: ctx.log }),
  };
}

/**
 * `GET /internal/events/processed/{event_id}`: whether this service has applied an event (its processed-events
 * table), which the read-your-writes gate of another replica asks (docs/architecture.md "Read-your-writes").
 */
export function eventProcessedRoute(isProcessed: (eventId: string) => Promise<boolean>): Route {
  return route({
    method: 'GET',
    path: '/events/processed/{event_id:str}',
    auth: 'service',
    async handler({ path }) {
      return { processed: await isProcessed(path.event_id) };
    },
  });
}

/**
 * `GET /internal/users/{user_id}/initial-state`: this service's part of a `/register` answer, in the events
 * service's initial-state protocol (services/events/README.md); `params` are the client options it reads. A null
 * state is a user this service does not know: 404 "No such user".
 */
export function initialStateRoute<P extends ParamDefs>(
  params: P,
  state: (userId: number, params: ParamValues<P>) => Promise<Record<string, unknown> | null>,
): Route {
  return route({
    method: 'GET',
    path: '/users/{user_id:int}/initial-state',
    auth: 'service',
    params,
    async handler(ctx) {
      const found = await state(ctx.path.user_id, ctx.params);
      if (!found) throw notFound('No such user');
      return found;
    },
  });
}

type SegmentKind = 'literal' | 'int' | 'str' | 'path';
interface Segment {
  kind: SegmentKind;
  value: string;
}

interface CompiledRoute {
  route: Route;
  regex: RegExp;
  names: { name: string; kind: SegmentKind }[];
  rank: number[];
}

const RANK: Record<SegmentKind, number> = { literal: 0, int: 1, str: 2, path: 3 };
/** Largest id a database integer column holds; bigger path ids can never exist. */
const MAX_ID = 2_147_483_647;

function compile(route: Route, prefix: string): CompiledRoute {
  const template = prefix + route.path;
  const segments: Segment[] = template
    .split('/')
    .filter((s) => s.length > 0)
    .map((s) => {
      const m = /^\{([a-z_][a-z0-9_]*):(int|str|path)\}$/i.exec(s);
      return m ? { kind: m[2] as SegmentKind, value: m[1]! } : { kind: 'literal', value: s };
    });
  const names: CompiledRoute['names'] = [];
  const pattern = segments
    .map((s) => {
      if (s.kind === 'literal') return '/' + s.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push({ name: s.value, kind: s.kind });
      if (s.kind === 'int') return '/([0-9]+)';
      if (s.kind === 'str') return '/([^/]+)';
      return '/(.+)';
    })
    .join('');
  return { route, regex: new RegExp(`^${pattern}/?$`), names, rank: segments.map((s) => RANK[s.kind]) };
}

function compareRank(a: number[], b: number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i]! - b[i]!;
  }
  return b.length - a.length;
}

export type RouteMatch =
  | { kind: 'found'; route: Route; path: Record<string, string | number> }
  | { kind: 'method_not_allowed'; allowed: HttpMethod[] }
  | { kind: 'not_found' };

export class Router {
  private readonly routes: CompiledRoute[] = [];

  add(prefix: string, routes: readonly Route[]): this {
    for (const r of routes) this.routes.push(compile(r, prefix));
    this.routes.sort((a, b) => compareRank(a.rank, b.rank));
    return this;
  }

  match(method: string, pathname: string): RouteMatch {
    const allowed: HttpMethod[] = [];
    for (const compiled of this.routes) {
      const m = compiled.regex.exec(pathname);
      if (!m) continue;
      if (compiled.route.method !== method) {
        if (!allowed.includes(compiled.route.method)) allowed.push(compiled.route.method);
        continue;
      }
      const path: Record<string, string | number> = {};
      let decodable = true;
      compiled.names.forEach(({ name, kind }, i) => {
        const raw = m[i + 1]!;
        if (kind === 'int') {
          const n = Number(raw);
          // An id too large for the database cannot exist; 0 is never assigned, so lookups say "does not exist".
          path[name] = Number.isSafeInteger(n) && n <= MAX_ID ? n : 0;
        } else {
          try {
            path[name] = decodeURIComponent(raw);
          } catch {
            decodable = false;
          }
        }
      });
      if (!decodable) continue;
      return { kind: 'found', route: compiled.route, path };
    }
    return allowed.length > 0 ? { kind: 'method_not_allowed', allowed } : { kind: 'not_found' };
  }
}
