import express, { type NextFunction, type Request, type Response } from 'express';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { ConfabError, NOT_LOGGED_IN, serviceUnavailable, unauthorized } from '@confab/errors';
import {
  collectCausalEvents,
  IDENTITY_HEADER,
  type CausalEvent,
  type Identity,
  type IdentityVerifier,
  type UserIdentity,
} from '@confab/identity';
import { runWithLogContext, type Logger } from '@confab/logging';
import {
  DEFAULT_BODY_LIMITS,
  parseBodyBytes,
  parseUrlEncoded,
  readBody,
  type BodyLimits,
  type ParsedBody,
} from './body.js';
import type { ChannelRequest } from './channel-frames.js';
import type { ChannelAnswer } from './channel-server.js';
import { ignoredParameters, parseParams } from './params.js';
import { collectProcessMetrics, observeRequest, requestMetrics } from './metrics.js';
import { RawResponse, route, Router, type Route } from './router.js';
import { CAUSAL_HEADER, causalFromHeader, type CausalFor } from './causal-header.js';
import {
  JSON_TEXT_HEADER,
  methodNotAllowed,
  notFoundResponse,
  sendError,
  successAnswer,
  answerBytes,
  writeJson,
  writeRaw,
} from './responses.js';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * An HTTP app as services build it: a request listener (express behind it for what is not a route), and `channel`,
 * which serves the same routes to requests that came over the gateway's persistent channel (channel-server.ts).
 */
export type HttpApp = RequestListener & { channel: (request: ChannelRequest, answer: ChannelAnswer) => void };

/** Takes the caller's request id (the gateway's) or makes one, and runs the rest of the request in its context. */
export function requestContext(req: Request, res: Response, next: NextFunction): void {
  const requestId = requestIdOf(req);
  res.locals.requestId = requestId;
  res.setHeader('X-Request-Id', requestId);
  runWithLogContext({ requestId }, next);
}

/** The caller's request id when it is a sane one, or a new one. */
export function requestIdOf(req: Pick<IncomingMessage, 'headers'>): string {
  const incoming = req.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
}

export interface ReadinessCheck {
  (): Promise<Record<string, boolean>>;
}

/** Liveness says the process answers; readiness says its database, broker and Redis answer too. */
export function healthRoutes(app: express.Express, readiness: ReadinessCheck): void {
  app.get('/healthz', (_req, res) => {
    res.status(200).json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    let checks: Record<string, boolean>;
    try {
      checks = await withTimeout(readiness(), 2000);
    } catch {
      checks = { timeout: false };
    }
    const ready = Object.values(checks).every(Boolean);
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not ready', checks });
  });
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('timeout')), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/**
 * GET /internal/routes: the public routes this service serves, with their parameters, so tests can check every
 * endpoint (authentication, hostile input) without a hand-kept list.
 */
function routeListing(routes: readonly Route[]): Route {
  const listing = routes.map((r) => ({
    method: r.method,
    path: `/api/v1${r.path}`,
    auth: r.auth,
    params: Object.entries(r.params).map(([name, def]) => ({
      name,
      required: def.options.required,
      aliases: def.options.aliases,
      kind: def.options.kind,
    })),
  }));
  return route({ method: 'GET', path: '/routes', auth: 'service', handler: () => ({ routes: listing }) });
}

export interface HttpAppOptions {
  /** Service name, for metric labels (default: the logger's `service`). */
  name?: string;
  logger: Logger;
  verifier: IdentityVerifier;
  /** Public API routes, served under /api/v1. */
  routes: readonly Route[];
  /** Service-to-service routes, served under /internal (never routed by the gateway). */
  internalRoutes?: readonly Route[];
  /** Browser pages outside /api/v1 that the gateway routes here (confirmation links, OAuth redirects). */
  pageRoutes?: readonly Route[];
  readiness: ReadinessCheck;
  bodyLimits?: BodyLimits;
  /** Extra middleware mounted before the API router (e.g. metrics). */
  before?: ((app: express.Express) => void) | undefined;
  /** Read-your-writes (docs/architecture.md): both sides are optional, and each service takes the part it plays. */
  causal?: CausalOptions;
}

export interface CausalOptions {
  /** Owners: record the events a user's request caused before answering it (the gateway carries them onwards). */
  record?: (userId: number, events: readonly CausalEvent[]) => Promise<void>;
  /** Owners: record an organization's `realm.*` events, which the gateway adds to every member's identity token. */
  recordRealm?: (realmId: number, events: readonly CausalEvent[]) => Promise<void>;
  /**
   * Copy holders: whether this service has applied the user's own recent events (false after waiting too long) —
   * for the user's own request, or for another service's call made for it (`CAUSAL_HEADER`).
   */
  caughtUp?: (who: { userId: number; realmId: number; causal: readonly CausalEvent[] }) => Promise<boolean>;
}

/**
 * Runs a user's request in read-your-writes order: after their earlier events, recording the ones it causes. A
 * service's call made for a user's request (`CAUSAL_HEADER`, trusted from signed service identities only) waits for
 * that user's events the same way.
 */
async function withCausality<T>(
  causal: CausalOptions | undefined,
  identity: Identity,
  run: () => Promise<T>,
  forUser: CausalFor | null = null,
) {
  if (causal === undefined) return run();
  const actor = identity.kind === 'user' ? identity.userId : undefined;
  const waitFor =
    identity.kind === 'user'
      ? identity.causal?.length
        ? { userId: identity.userId, realmId: identity.realmId, causal: identity.causal }
        : null
      : forUser && forUser.events.length > 0
        ? { userId: forUser.userId, realmId: forUser.realmId, causal: forUser.events }
        : null;
  if (waitFor && causal.caughtUp && !(await causal.caughtUp(waitFor))) throw serviceUnavailable();
  const record = causal.record;
  if (!record) return run();
  const { result, events } = await collectCausalEvents(run);
  if (actor !== undefined && events.length > 0) await record(actor, events);
  // A change about another user (an administrator deactivating or demoting someone, the bots of a deactivated owner,
  // SCIM deactivating an account) goes into that user's log too, so it is in force for their very next request.
  const others = new Map<number, CausalEvent[]>();
  for (const event of events) {
    if (event.subject === undefined || event.subject === actor || !event.type.startsWith('user.')) continue;
    others.set(event.subject, [...(others.get(event.subject) ?? []), event]);
  }
  const writes = [...others].map(([userId, about]) => record(userId, about));
  // An organization's settings change (PATCH /realm and the like) holds for every member's very next request.
  const realm = events.filter((e) => e.type.startsWith('realm.'));
  if (causal.recordRealm && identity.kind === 'user' && realm.length > 0) {
    writes.push(causal.recordRealm(identity.realmId, realm));
  }
  if (writes.length > 0) await Promise.all(writes);
  return result;
}

function checkIdentity(route: Route, identity: Identity | null): Identity {
  if (!identity) throw unauthorized(NOT_LOGGED_IN);
  switch (route.auth) {
    case 'public':
      if (identity.kind === 'service') throw unauthorized(NOT_LOGGED_IN);
      return identity;
    case 'service':
      if (identity.kind !== 'service') throw unauthorized(NOT_LOGGED_IN);
      return identity;
    case 'user':
    case 'human':
      if (identity.kind !== 'user') throw unauthorized(NOT_LOGGED_IN);
      if (route.auth === 'human' && identity.isBot)
        throw new ConfabError('This endpoint does not accept bot requests.');
      return identity;
  }
}

/**
 * A service's HTTP app: request ids, health and readiness, then one router that answers 404/405, checks the
 * identity token, parses the body and parameters, runs the handler and writes the envelope.
 *
 * The routes of the router are the hot path: a bare request listener serves them, without express's router,
 * request decoration and middleware chain (as the gateway does for proxied requests). Express serves the rest:
 * health and readiness, what `before` mounts, and the 404s and 405s.
 */
export function createHttpApp(options: HttpAppOptions): HttpApp {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', false);
  const router = new Router()
    .add('/api/v1', options.routes)
    .add('/internal', [...(options.internalRoutes ?? []), routeListing(options.routes)])
    .add('', options.pageRoutes ?? []);
  const log = options.logger;
  const limits = options.bodyLimits ?? DEFAULT_BODY_LIMITS;
  const causal = options.causal;

  collectProcessMetrics(options.name ?? String(options.logger.bindings().service ?? 'service'));
  app.use(requestContext);
  healthRoutes(app, options.readiness);
  app.use(requestMetrics);
  options.before?.(app);
  app.use((req: Request, res: Response) => {
    const queryIndex = req.url.indexOf('?');
    const match = router.match(req.method, queryIndex === -1 ? req.url : req.url.slice(0, queryIndex));
    if (match.kind === 'method_not_allowed') return methodNotAllowed(res, match.allowed);
    return notFoundResponse(res);
  });
  app.use((err: unknown, _req: Request, res: Response, _next: NextFunction) => {
    sendError(res, err, log);
  });

  async function serve(
    req: IncomingMessage,
    res: ServerResponse,
    route: Route,
    path: Record<string, string | number>,
    url: string,
    queryIndex: number,
    requestId: string,
    channelBody?: Buffer,
  ): Promise<void> {
    let identity: Identity | undefined;
    try {
      const headerValue = req.headers[IDENTITY_HEADER];
      identity = checkIdentity(
        route,
        options.verifier.verify(typeof headerValue === 'string' ? headerValue : undefined),
      );
      const body: ParsedBody =
        channelBody === undefined
          ? await readBody(req, { acceptJson: route.json, limits, raw: route.rawBody })
          : parseBodyBytes((req.headers['content-type'] ?? '').toLowerCase(), channelBody, route.json, route.rawBody);
      const source = { body: body.fields, query: parseUrlEncoded(queryIndex === -1 ? '' : url.slice(queryIndex + 1)) };
      const { values, used } = parseParams(route.params, source);
      const caller = identity;
      const userId = caller.kind === 'user' ? caller.userId : undefined;
      const ignored = () => ignoredParameters(source, used);
      const context = { params: values, path, identity: caller, body, req, res, log, requestId, ignored };
      const result = await runWithLogContext({ requestId, userId }, () =>
        withCausality(
          causal,
          caller,
          async () => route.handler(context),
          caller.kind === 'service' ? causalFromHeader(req.headers[CAUSAL_HEADER]) : null,
        ),
      );
      if (result instanceof RawResponse) {
        writeRaw(res, result);
        return;
      }
      const answer = successAnswer(result, route.json ? [] : ignoredParameters(source, used));
      res.statusCode = 200;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      // Only other Confab processes are told where the JSON-text fields are (ServiceClient passes them on).
      if (answer.layout && route.auth === 'service') res.setHeader(JSON_TEXT_HEADER, answer.layout);
      res.setHeader('Content-Length', answer.bytes);
      res.end(answer.parts.length === 1 ? answer.parts[0] : answerBytes(answer));
    } catch (err) {
      const userId = identity?.kind === 'user' ? identity.userId : undefined;
      runWithLogContext({ requestId, userId }, () => sendError(res, err, log));
    }
  }

  function start(
    req: IncomingMessage,
    res: ServerResponse,
    match: { route: Route; path: Record<string, string | number> },
    url: string,
    queryIndex: number,
    channelBody?: Buffer,
  ): void {
    const started = process.hrtime.bigint();
    const requestId = requestIdOf(req);
    res.setHeader('X-Request-Id', requestId);
    const method = req.method ?? 'GET';
    const template = match.route.path;
    res.once('finish', () =>
      observeRequest(method, template, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9),
    );
    void serve(req, res, match.route, match.path, url, queryIndex, requestId, channelBody);
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const queryIndex = url.indexOf('?');
    const match = router.match(req.method ?? 'GET', queryIndex === -1 ? url : url.slice(0, queryIndex));
    if (match.kind !== 'found') {
      app(req, res);
      return;
    }
    start(req, res, match, url, queryIndex);
  };
  // The channel's requests run the same routes; what the router does not serve there is answered as express would.
  const channel = (request: ChannelRequest, answer: ChannelAnswer) => {
    const url = request.url;
    const queryIndex = url.indexOf('?');
    const match = router.match(request.method, queryIndex === -1 ? url : url.slice(0, queryIndex));
    const res = answer.asResponse();
    if (match.kind === 'found') start(channelIncoming(request), res, match, url, queryIndex, request.body);
    else if (match.kind === 'method_not_allowed') {
      res.setHeader('Allow', match.allowed.join(', '));
      writeJson(res, 405, { result: 'error', msg: 'Method Not Allowed', allowed_methods: match.allowed });
    } else writeJson(res, 404, { result: 'error', msg: 'Not Found', code: 'NOT_FOUND' });
  };
  return Object.assign(listener, { channel });
}

/**
 * A channel request as the route layer sees a request: its method, URL and headers (routes served over the channel
 * read nothing else of node's IncomingMessage; its body is parsed from the frame).
 */
function channelIncoming(request: ChannelRequest): IncomingMessage {
  return { method: request.method, url: request.url, headers: request.headers } as unknown as IncomingMessage;
}

export interface RunningServer {
  server: Server;
  port: number;
  close(): Promise<void>;
}

/** Listens with keep-alive timeouts longer than the gateway's idle-socket timeout, so reused sockets stay open. */
export function listen(app: express.Express | RequestListener, port: number, host = '0.0.0.0'): Promise<RunningServer> {
  const server = createServer(app);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const actualPort = typeof address === 'object' && address ? address.port : port;
      resolve({
        server,
        port: actualPort,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            server.closeIdleConnections();
            // Long polls and slow clients get a bounded grace period.
            setTimeout(() => server.closeAllConnections(), 10_000).unref();
          }),
      });
    });
  });
}
