import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Agent } from 'node:http';
import express, { type Request, type Response } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { ConfabError, rateLimited } from '@confab/errors';
import {
  collectProcessMetrics,
  healthRoutes,
  notFoundResponse,
  observeRequest,
  requestContext,
  requestIdOf,
  requestMetrics,
  sendError,
  type ReadinessCheck,
} from '@confab/http';
import { IDENTITY_HEADER, type Identity, type IdentitySigner } from '@confab/identity';
import type { Logger } from '@confab/logging';
import type { Authenticator, RateLimitState } from './auth.js';
import type { GatewayConfig, ServiceName } from './config.js';
import { parseBasicAuth } from './credentials.js';
import { createForwarder, type Forwarder } from './forward.js';
import { createEventsChannel } from './events-channel.js';
import { keyRefusal, webhookBasicCredentials, webhookKeyCredentials, type WebhookCredentials } from './webhook-auth.js';
import type { ApiDocs } from './docs.js';
import { API_PREFIX, resolveRoute, type RouteTarget } from './routing.js';
import { sessionRoutes } from './session-routes.js';
import { staticSite } from './static.js';
import {
  checkSessionLive,
  parseCookies,
  SESSION_COOKIE,
  sessionCredentials,
  withoutChallenge,
  type SessionStore,
} from './sessions.js';

export interface GatewayDeps {
  docs?: ApiDocs;
  config: GatewayConfig;
  logger: Logger;
  authenticator: Authenticator;
  signer: IdentitySigner;
  readiness: ReadinessCheck;
  /** Browser sessions (sessions.ts): /json/* and /accounts/login|logout; off when absent. */
  sessions?: SessionStore;
  /** The settings service's side of a finished sign-in flow's login token (session-routes.ts). */
  redeemLoginToken?: (token: string, host: string) => Promise<{ email: string; api_key: string; next: string }>;
  /** The built web client served at / (static.ts); none when absent. */
  webDir?: string;
}

/**
 * A browser opening an uploaded file or an inline image's preview (`<img src="/thumbnail?…">`, a link to
 * `/user_uploads/…`) with its session cookie and no Basic credentials: Zulip serves these to the session too, or the
 * web client could show no image. Reading only (GET/HEAD), so no CSRF token is involved.
 */
function browserFileRequest(req: IncomingMessage, path: string): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (req.headers.authorization) return false;
  if (path !== '/thumbnail' && !path.startsWith('/user_uploads/')) return false;
  return parseCookies(req.headers.cookie).has(SESSION_COOKIE);
}

/** Django's add_never_cache_headers, which Zulip's rest_dispatch applies to every REST answer. */
const NEVER_CACHE = 'max-age=0, no-cache, no-store, must-revalidate, private';

/** Zulip's session-authenticated twin of /api/v1 (what its web app calls). */
const JSON_PREFIX = '/json';

function setRateLimitHeaders(res: ServerResponse, rate: RateLimitState): void {
  res.setHeader('X-RateLimit-Limit', String(rate.limit));
  res.setHeader('X-RateLimit-Remaining', String(rate.remaining));
  res.setHeader('X-RateLimit-Reset', String(rate.reset));
}

function upstreamFailure(res: ServerResponse, err: NodeJS.ErrnoException, log: Logger): void {
  log.warn({ err: err.message, code: err.code }, 'upstream request failed');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const refused = err.code === 'ECONNREFUSED' || err.code === 'ENOTFOUND';
  const status = refused ? 503 : 502;
  const body = refused
    ? { result: 'error', msg: 'Service temporarily unavailable, retry later', code: 'SERVICE_UNAVAILABLE' }
    : { result: 'error', msg: 'Bad gateway: the service did not answer', code: 'BAD_GATEWAY' };
  res.writeHead(status, { 'Content-Type': 'application/json', 'Retry-After': '1' });
  res.end(JSON.stringify(body));
}

/**
 * How each service's requests reach it: http-proxy-middleware, streaming over keep-alive connections (the body is
 * never parsed here), for every service but the events service, whose long polls are the gateway's hot path: one
 * answer per waiting client for every event, so they go through the plain forwarder of forward.ts, which sets
 * nothing up per request (docs/architecture.md, "The gateway"; bench/RESULTS.md, the long-poll CPU).
 */
function createForwarders(config: GatewayConfig, log: Logger): Partial<Record<ServiceName, Forwarder>> {
  const forwarders: Partial<Record<ServiceName, Forwarder>> = {};
  for (const [name, target] of Object.entries(config.services) as [ServiceName, string][]) {
    // Every socket may stay open between requests: under load, closing some after each wave only to reopen them costs
    // more. Long polls each hold an events socket while they wait, so that service gets a limit of its own.
    if (name === 'events') {
      const onError = (res: ServerResponse, err: NodeJS.ErrnoException) => upstreamFailure(res, err, log);
      const http = createForwarder({
        target,
        maxSockets: config.proxyEventsMaxSockets,
        timeoutMs: config.proxyTimeoutMs,
        onError,
      });
      // The long polls go over the events channel when it is configured; the HTTP forwarder is its fallback.
      const channel = config.eventsChannel
        ? createEventsChannel({
            ...config.eventsChannel,
            timeoutMs: config.proxyTimeoutMs,
            fallback: http,
            onError,
            log,
          })
        : undefined;
      forwarders[name] = channel ? channel.forward : http;
      continue;
    }
    // Webhooks go through the plain forwarder too: it can send on a form body the gateway read for its api_key.
    if (name === 'integrations') {
      forwarders[name] = createForwarder({
        target,
        maxSockets: config.proxyMaxSockets,
        timeoutMs: config.proxyTimeoutMs,
        onError: (res, err) => upstreamFailure(res, err, log),
      });
      continue;
    }
    // Idle sockets are dropped after 30 s, before the services' 65 s keep-alive timeout closes them under us.
    const maxSockets = config.proxyMaxSockets;
    const agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, timeout: 30_000 });
    const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
      target,
      agent,
      changeOrigin: false,
      xfwd: true,
      proxyTimeout: config.proxyTimeoutMs,
      ejectPlugins: true,
      plugins: [
        (proxyServer) => {
          proxyServer.on('error', (err, _req, res) => {
            if ('writeHead' in res) upstreamFailure(res, err, log);
            else res.destroy();
          });
          // A service's answer cut off half way (a proxied image past its size cap, a service that died) ends the
          // client's answer too: without this the client would wait for the rest forever.
          proxyServer.on('proxyRes', (proxyRes, _req, res) => {
            proxyRes.once('close', () => {
              if (!proxyRes.complete) res.destroy();
            });
          });
        },
      ],
    });
    forwarders[name] = (req, res) => {
      proxy(req, res).catch((err: NodeJS.ErrnoException) => upstreamFailure(res, err, log));
    };
  }
  return forwarders;
}

function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first) return first;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

/**
 * The gateway: route → authenticate (Basic, cached) → rate-limit → stamp the identity token → stream the request
 * to the owning service. Unknown paths are 404 without authentication.
 *
 * Proxied requests are the hot path (docs/architecture.md, "The gateway"): they are answered by a bare request
 * listener, without express's router, request decoration or a log context per request; express serves only the
 * gateway's own pages (health, API docs) and the 404s.
 */
export function buildGateway(deps: GatewayDeps): RequestListener {
  const { config, logger, authenticator, signer } = deps;
  const forwarders = createForwarders(config, logger);
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.set('query parser', false);
  collectProcessMetrics('gateway');
  app.use(requestContext);
  healthRoutes(app, deps.readiness);
  app.use(requestMetrics);
  if (deps.docs) {
    const docs = deps.docs;
    app.get('/api/openapi.json', async (_req, res) => {
      res.locals.route = 'docs';
      res.json(await docs.document());
    });
    app.get('/api/docs', async (_req, res) => {
      res.locals.route = 'docs';
      res.type('html').send(await docs.page());
    });
  }
  app.use((_req: Request, res: Response) => notFoundResponse(res));

  const site = staticSite(deps.webDir);
  const sessions = deps.sessions;
  const sessionRoute = sessions
    ? sessionRoutes({
        sessions,
        authenticator,
        signer,
        settingsUrl: config.services.settings!,
        logger,
        clientIp: (req) => clientIp(req, config.trustProxy),
        setRateLimitHeaders,
        redeemLoginToken: deps.redeemLoginToken,
      })
    : undefined;

  async function forward(
    req: IncomingMessage,
    res: ServerResponse,
    target: RouteTarget,
    viaSession = false,
  ): Promise<void> {
    const requestId = startRequest(req, res, target.service);
    // Zulip's rest_dispatch: every REST answer is never cached, unless the view says otherwise (the service's own
    // Cache-Control replaces this one when the answer's headers are copied).
    if (req.url?.startsWith(`${API_PREFIX}/`)) res.setHeader('Cache-Control', NEVER_CACHE);
    try {
      const forwarder = forwarderOf(target.service);
      let identity: Identity;
      let rate: RateLimitState;
      if (target.public) {
        identity = { kind: 'anonymous' };
        rate = await authenticator.countAnonymous(
          clientIp(req, config.trustProxy),
          Date.now(),
          target.externalContent ? 'external_content' : undefined,
        );
      } else if (viaSession && sessions) {
        const { credentials, session, id } = await sessionCredentials(req, sessions);
        const authenticated = await authenticator.authenticate(credentials);
        await checkSessionLive(sessions, id, session, authenticated.identity);
        identity = authenticated.identity;
        rate = authenticated.rate;
      } else {
        const authenticated = await authenticator.authenticate({
          ...parseBasicAuth(req.headers.authorization),
          host: req.headers.host ?? '',
        });
        identity = authenticated.identity;
        rate = authenticated.rate;
      }
      setRateLimitHeaders(res, rate);
      if (rate.retryAfter > 0) throw rateLimited(rate.retryAfter);
      const headers = req.headers;
      headers[IDENTITY_HEADER] = signer.sign(identity);
      headers['x-request-id'] = requestId;
      if (!target.passAuthorization) delete headers.authorization;
      if (target.externalContent) delete headers.cookie;
      if (viaSession) {
        // The session id never leaves the gateway.
        delete headers.cookie;
        delete headers['x-csrftoken'];
      }
      forwarder(req, res);
    } catch (err) {
      sendError(res, viaSession ? withoutChallenge(err) : err, logger);
    }
  }

  /** The request's id (answered in X-Request-Id) and its duration counted per service once it is answered. */
  function startRequest(req: IncomingMessage, res: ServerResponse, service: ServiceName): string {
    const started = process.hrtime.bigint();
    const requestId = requestIdOf(req);
    res.setHeader('X-Request-Id', requestId);
    res.once('finish', () => {
      observeRequest(req.method ?? 'GET', service, res.statusCode, Number(process.hrtime.bigint() - started) / 1e9);
    });
    return requestId;
  }

  /** The proxy to a service, or 503 while the gateway has none for it. */
  function forwarderOf(service: ServiceName): Forwarder {
    const forwarder = forwarders[service];
    if (!forwarder) {
      throw new ConfabError('Service temporarily unavailable, retry later', {
        status: 503,
        code: 'SERVICE_UNAVAILABLE',
      });
    }
    return forwarder;
  }

  /**
   * An incoming webhook (/api/v1/external/{name}): its credentials are the `api_key` parameter or, for Zulip's
   * Basic-auth integrations, the Authorization header, with Zulip's webhook texts (webhook-auth.ts); then the same
   * rate limit and identity token as any request. Other requests never come here.
   */
  async function forwardWebhook(
    req: IncomingMessage,
    res: ServerResponse,
    target: RouteTarget & { webhook: { name: string; basic: boolean } },
    query: string,
  ): Promise<void> {
    const requestId = startRequest(req, res, target.service);
    try {
      const forwarder = forwarderOf(target.service);
      const found: WebhookCredentials = target.webhook.basic
        ? {
            credentials: webhookBasicCredentials(req.headers.authorization, target.webhook.name === 'beanstalk'),
            byParameter: false,
          }
        : await webhookKeyCredentials(req, query, config.webhookFormMaxBytes);
      if (found.byParameter && found.credentials.apiKey === '') {
        throw new ConfabError('Malformed API key', { status: 401, code: 'INVALID_API_KEY' });
      }
      let authenticated;
      try {
        authenticated = await authenticator.authenticate({ ...found.credentials, host: req.headers.host ?? '' });
      } catch (err) {
        throw found.byParameter ? keyRefusal(err) : err;
      }
      setRateLimitHeaders(res, authenticated.rate);
      if (authenticated.rate.retryAfter > 0) throw rateLimited(authenticated.rate.retryAfter);
      const headers = req.headers;
      headers[IDENTITY_HEADER] = signer.sign(authenticated.identity);
      headers['x-request-id'] = requestId;
      delete headers.authorization;
      forwarder(req, res, found.body);
    } catch (err) {
      sendError(res, err, logger);
    }
  }

  return (req, res) => {
    // Zulip's XFrameOptionsMiddleware (X_FRAME_OPTIONS = "DENY"): no page of this server may be framed, the services'
    // HTML error pages and the API docs included.
    res.setHeader('X-Frame-Options', 'DENY');
    const url = req.url ?? '/';
    const queryIndex = url.indexOf('?');
    const path = queryIndex === -1 ? url : url.slice(0, queryIndex);
    if (sessionRoute && path.startsWith(`${JSON_PREFIX}/`)) {
      const apiUrl = `${API_PREFIX}${url.slice(JSON_PREFIX.length)}`;
      const apiTarget = resolveRoute(`${API_PREFIX}${path.slice(JSON_PREFIX.length)}`);
      // Webhooks have no session twin (Zulip has no /json/external).
      if (apiTarget && !apiTarget.webhook) {
        req.url = apiUrl;
        void forward(req, res, apiTarget, true);
        return;
      }
    }
    if (sessionRoute?.(req, res, path)) return;
    const target = resolveRoute(path);
    if (target?.webhook)
      void forwardWebhook(req, res, { ...target, webhook: target.webhook }, url.slice(path.length + 1));
    else if (target) void forward(req, res, target, sessions !== undefined && browserFileRequest(req, path));
    else if (!site(req, res, path)) app(req, res);
  };
}
