import type { IncomingMessage } from 'node:http';
import { internal } from '@confab/events';
import { ConfabError, invalid } from '@confab/errors';
import { internalRoute, p, RawResponse, route } from '@confab/http';
import type { Logger } from '@confab/logging';
import type { SettingsDeps } from '../deps.js';
import { realmForHost } from '../domain/directory.js';
import { realmUrl } from '../domain/realms.js';
import {
  completeOidc,
  completeSaml,
  FLOW_COOKIE,
  FLOW_SECONDS,
  oidcProviderNamed,
  samlIdpNamed,
  startOidc,
  startSaml,
  type FlowContext,
} from '../domain/sso/flows.js';
import { redeemLoginToken } from '../domain/sso/login.js';
import { SAML_ACS_PATH, SAML_METADATA_PATH } from '../domain/sso/methods.js';
import { SsoRefused } from '../domain/sso/ports.js';
import type { Realm } from '../domain/types.js';
import { ssoProvisioning } from '../sso-wiring.js';

/** The internal side of the identity flows: the gateway turns a finished flow's login token into a session. */
export function ssoInternalRoutes(deps: SettingsDeps) {
  return [
    internalRoute(internal.endpoints.redeemLoginToken, async ({ token, host }) => {
      const sso = deps.sso;
      const found = sso ? await redeemLoginToken({ db: deps.db, flows: sso.flows }, token) : null;
      const realm = found ? await realmForHost(deps.db, host, deps.config.externalUrl) : null;
      // A token is spent on its own organization's host only.
      if (!found || !realm || realm.id !== found.realmId)
        throw invalid('This sign-in link has expired or was already used.');
      return { user_id: found.userId, email: found.email, api_key: found.apiKey, next: found.next };
    }),
  ];
}

const flowParams = {
  mobile_flow_otp: p.string().optional(),
  desktop_flow_otp: p.string().optional(),
  next: p.string().default(''),
};

function flowRequest(params: {
  mobile_flow_otp?: string | undefined;
  desktop_flow_otp?: string | undefined;
  next: string;
}) {
  return {
    mobileFlowOtp: params.mobile_flow_otp ?? null,
    desktopFlowOtp: params.desktop_flow_otp ?? null,
    next: params.next,
  };
}

/** What the flow's start was asked for: `mobile_flow_otp`, `desktop_flow_otp`, `next`. */
function requestOfUrl(req: IncomingMessage) {
  const query = new URL(req.url ?? '/', 'http://x').searchParams;
  return flowRequest({
    mobile_flow_otp: query.get('mobile_flow_otp') ?? undefined,
    desktop_flow_otp: query.get('desktop_flow_otp') ?? undefined,
    next: query.get('next') ?? '',
  });
}

/** A redirect; the app's `zulip://` one too (Zulip answers it with a bare 302, since no HTTP client follows it). */
function redirect(location: string, cookie?: string): RawResponse {
  return new RawResponse(302, '', {
    location,
    'cache-control': 'no-store',
    ...(cookie ? { 'set-cookie': cookie } : {}),
  });
}

function isHttps(req: IncomingMessage): boolean {
  const proto = req.headers['x-forwarded-proto'];
  return (Array.isArray(proto) ? proto[0] : proto)?.split(',')[0]?.trim() === 'https';
}

/**
 * The browser's pages of the identity flows: where the OpenID Connect and SAML sign-ins start (Zulip's
 * `/accounts/login/social/...` login URLs, which /server_settings lists), where the providers send the browser back,
 * and the SP metadata. A refused flow sends the browser to the sign-in page with the reason (`?login_error=`).
 */
export function ssoPageRoutes(deps: SettingsDeps) {
  const sso = deps.config.sso;
  if (sso.oidc.length === 0 && !sso.saml) return [];
  const context = (requestId: string): FlowContext => ({
    provisioning: ssoProvisioning(deps, requestId),
    sso,
    flows: deps.sso!.flows,
    invitations: deps.sso?.invitations,
    oidc: deps.sso?.oidc,
    saml: deps.sso?.saml,
  });

  /** Runs a flow step on the organization of the host; any refusal ends on the sign-in page, never in a 5xx. */
  function flowStep(run: (realm: Realm, ctx: FlowContext, req: IncomingMessage) => Promise<RawResponse>) {
    return async ({ req, requestId, log }: { req: IncomingMessage; requestId: string; log: Logger }) => {
      const realm = await realmForHost(deps.db, req.headers.host, deps.config.externalUrl);
      const home = realm ? realmUrl(realm, deps.config.externalUrl) : deps.config.externalUrl;
      try {
        if (!realm) throw new SsoRefused('There is no organization at this address.');
        if (!deps.sso) throw new SsoRefused('Single sign-on is not available on this server.');
        return await run(realm, context(requestId), req);
      } catch (err) {
        let reason = 'The sign-in could not be finished. Please try again.';
        if (err instanceof SsoRefused) reason = err.message;
        else if (err instanceof ConfabError && err.status < 500) reason = err.message;
        else log.error({ err }, 'sign-in flow failed');
        if (!(err instanceof SsoRefused)) log.info({ reason }, 'sign-in refused');
        return redirect(`${home}/?login_error=${encodeURIComponent(reason)}`);
      }
    };
  }

  const oidcStart = (name: string | null, preset: string | null) =>
    flowStep(async (realm, ctx, req) => {
      const request = requestOfUrl(req);
      const provider = oidcProviderNamed(sso, name, preset);
      const { location, binding } = await startOidc(ctx, realm, provider, request);
      const secure = isHttps(req) ? '; Secure' : '';
      // Lax: the provider's redirect back is a top-level GET from its site, which Strict would strip the cookie from.
      const cookie = `${FLOW_COOKIE}=${binding}; HttpOnly; SameSite=Lax; Path=/complete/; Max-Age=${FLOW_SECONDS}${secure}`;
      return redirect(location, cookie);
    });

  const oidcComplete = (name: string | null, preset: string | null) =>
    flowStep(async (realm, ctx, req) => {
      const provider = oidcProviderNamed(sso, name, preset);
      const callback = new URL(req.url ?? '/', realmUrl(realm, deps.config.externalUrl));
      const binding = parseCookie(req.headers.cookie, FLOW_COOKIE);
      return redirect(await completeOidc(ctx, realm, provider, callback, binding));
    });

  const samlStart = (name: string) =>
    flowStep(async (realm, ctx, req) => {
      const request = requestOfUrl(req);
      return redirect((await startSaml(ctx, realm, samlIdpNamed(sso, name), request)).location);
    });

  const routes = [];
  for (const base of ['/accounts/login/social', '/accounts/register/social']) {
    routes.push(
      route({
        method: 'GET',
        path: `${base}/oidc`,
        auth: 'public',
        params: flowParams,
        handler: (ctx) => oidcStart(null, null)(ctx),
      }),
      route({
        method: 'GET',
        path: `${base}/oidc/{name:str}`,
        auth: 'public',
        params: flowParams,
        handler: (ctx) => oidcStart(ctx.path.name, null)(ctx),
      }),
      route({
        method: 'GET',
        path: `${base}/saml/{idp:str}`,
        auth: 'public',
        params: flowParams,
        handler: (ctx) => samlStart(ctx.path.idp)(ctx),
      }),
      route({
        method: 'GET',
        path: `${base}/{backend:str}`,
        auth: 'public',
        params: flowParams,
        handler: (ctx) => oidcStart(null, ctx.path.backend)(ctx),
      }),
    );
  }
  routes.push(
    route({
      method: 'GET',
      path: '/complete/oidc/{name:str}',
      auth: 'public',
      handler: (ctx) => oidcComplete(ctx.path.name, null)(ctx),
    }),
    route({
      method: 'POST',
      path: SAML_ACS_PATH,
      auth: 'public',
      params: { SAMLResponse: p.string({ maxLength: 500_000 }).default(''), RelayState: p.string().default('') },
      handler: (ctx) =>
        flowStep((realm, flowCtx) => completeSaml(flowCtx, realm, ctx.params).then((location) => redirect(location)))(
          ctx,
        ),
    }),
    route({
      method: 'GET',
      path: '/complete/{backend:str}',
      auth: 'public',
      handler: (ctx) => oidcComplete(null, ctx.path.backend)(ctx),
    }),
    route({
      method: 'GET',
      path: SAML_METADATA_PATH,
      auth: 'public',
      async handler({ req }) {
        const realm = await realmForHost(deps.db, req.headers.host, deps.config.externalUrl);
        if (!sso.saml || !deps.sso?.saml)
          return new RawResponse(404, 'SAML is not configured', { 'content-type': 'text/plain' });
        const base = realm ? realmUrl(realm, deps.config.externalUrl) : deps.config.externalUrl;
        return new RawResponse(200, deps.sso.saml.metadata(`${base}${SAML_ACS_PATH}`), {
          'content-type': 'application/samlmetadata+xml',
        });
      },
    }),
  );
  return routes;
}

function parseCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
