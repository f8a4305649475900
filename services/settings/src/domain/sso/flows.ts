import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ProvisioningContext } from '../provisioning.js';
import { realmUrl } from '../realms.js';
import type { Realm } from '../types.js';
import { findOrCreateSsoUser, finishFlow, type FlowRequest, type SignupPolicy, type VouchedPerson } from './login.js';
import { isPreset, oidcCallbackPath, oidcMethodKey, SAML_ACS_PATH, ssoMethodEnabled } from './methods.js';
import { invalidOtp, isValidOtp } from './otp.js';
import { SsoRefused, type OidcClient, type PendingInvitations, type SamlClient, type SsoFlowStore } from './ports.js';
import type { OidcProvider, SamlIdp, SsoSettings } from './settings.js';

/**
 * The browser flows of OpenID Connect and SAML (Zulip's start_social_login and its social-auth pipeline): the start
 * stores what the callback must find (state, nonce, PKCE verifier; the AuthnRequest's ID) under a one-time key bound
 * to the browser that started, and the callback checks it all before the shared end (login.ts). Every refusal is an
 * SsoRefused, which sends the browser back to the sign-in page with its message.
 */

export interface FlowContext {
  provisioning: ProvisioningContext;
  /** Where a first sign-in finds the person's pending invitation. */
  invitations?: PendingInvitations | undefined;
  sso: SsoSettings;
  flows: SsoFlowStore;
  oidc?: OidcClient | undefined;
  saml?: SamlClient | undefined;
}

/** How long a started sign-in may take at the identity provider. */
export const FLOW_SECONDS = 600;
/** The cookie that binds a flow to the browser that started it (a state seen elsewhere is useless). */
export const FLOW_COOKIE = 'confab_sso_flow';

const random = () => randomBytes(32).toString('base64url');
const digest = (value: string) => createHash('sha256').update(value).digest('hex');

function sameDigest(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const expired = () => new SsoRefused('This sign-in has expired or was already used. Please sign in again.');
const methodOff = (name: string) => new SsoRefused(`Signing in with ${name} is disabled in this organization.`);
const unknownProvider = () => new SsoRefused('This sign-in method is not configured on this server.');

export function checkFlowRequest(request: FlowRequest): void {
  for (const otp of [request.mobileFlowOtp, request.desktopFlowOtp]) {
    if (otp !== null && !isValidOtp(otp)) throw invalidOtp();
  }
}

/** The provider a login URL names: a preset (`/social/github`), `oidc/<name>`, or bare `oidc` (the first one). */
export function oidcProviderNamed(sso: SsoSettings, name: string | null, preset: string | null): OidcProvider | null {
  if (preset !== null) return isPreset(preset) ? (sso.oidc.find((p) => p.preset === preset) ?? null) : null;
  const generic = sso.oidc.filter((p) => p.preset === null);
  return name === null ? (generic[0] ?? null) : (generic.find((p) => p.name === name) ?? null);
}

interface StoredFlow extends Record<string, unknown> {
  realm_id: number;
  binding: string;
  mobile_flow_otp: string | null;
  desktop_flow_otp: string | null;
  next: string;
}

function storedFlow(realm: Realm, binding: string, request: FlowRequest): StoredFlow {
  return {
    realm_id: realm.id,
    binding: digest(binding),
    mobile_flow_otp: request.mobileFlowOtp,
    desktop_flow_otp: request.desktopFlowOtp,
    next: request.next,
  };
}

function requestOf(flow: Record<string, unknown>): FlowRequest {
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    mobileFlowOtp: text(flow.mobile_flow_otp),
    desktopFlowOtp: text(flow.desktop_flow_otp),
    next: text(flow.next) ?? '/',
  };
}

/** The person is in; the browser goes to the app's redirect or the gateway's session step. */
async function admit(
  ctx: FlowContext,
  realm: Realm,
  person: VouchedPerson,
  policy: SignupPolicy,
  request: FlowRequest,
): Promise<string> {
  const { user } = await findOrCreateSsoUser(
    { ...ctx.provisioning, invitations: ctx.invitations },
    realm,
    person,
    policy,
  );
  return finishFlow(
    { db: ctx.provisioning.db, externalUrl: ctx.provisioning.externalUrl, flows: ctx.flows },
    realm,
    user,
    request,
  );
}

function oidcRedirectUri(ctx: FlowContext, realm: Realm, provider: OidcProvider): string {
  return `${realmUrl(realm, ctx.provisioning.externalUrl)}${oidcCallbackPath(provider)}`;
}

/** GET /accounts/login/social/{oidc/<name>|<preset>}: to the provider, with a fresh state, nonce and PKCE verifier. */
export async function startOidc(
  ctx: FlowContext,
  realm: Realm,
  provider: OidcProvider | null,
  request: FlowRequest,
): Promise<{ location: string; binding: string }> {
  if (!provider || !ctx.oidc) throw unknownProvider();
  if (!ssoMethodEnabled(ctx.sso, realm, oidcMethodKey(provider))) throw methodOff(provider.displayName);
  checkFlowRequest(request);
  const secrets = { state: random(), nonce: random(), codeVerifier: random() };
  const binding = random();
  await ctx.flows.put(
    'oidc',
    secrets.state,
    {
      ...storedFlow(realm, binding, request),
      provider: provider.name,
      nonce: secrets.nonce,
      code_verifier: secrets.codeVerifier,
    },
    FLOW_SECONDS,
  );
  return {
    location: await ctx.oidc.authorizationUrl(provider, oidcRedirectUri(ctx, realm, provider), secrets),
    binding,
  };
}

/**
 * GET /complete/oidc/<name>/ (or /complete/<preset>/): the state must be one this browser started here and not used
 * before; the library checks the code, PKCE, the id_token's signature, issuer, audience, expiry and nonce; the email
 * must not be marked unverified; the method must still be on.
 */
export async function completeOidc(
  ctx: FlowContext,
  realm: Realm,
  provider: OidcProvider | null,
  callbackUrl: URL,
  binding: string | undefined,
): Promise<string> {
  if (!provider || !ctx.oidc) throw unknownProvider();
  const error = callbackUrl.searchParams.get('error');
  if (error !== null) {
    const description = callbackUrl.searchParams.get('error_description');
    throw new SsoRefused(`${provider.displayName} refused the sign-in: ${description ?? error}`);
  }
  const state = callbackUrl.searchParams.get('state') ?? '';
  const flow = state === '' ? null : await ctx.flows.take('oidc', state);
  if (!flow || flow.provider !== provider.name || flow.realm_id !== realm.id) throw expired();
  if (!binding || typeof flow.binding !== 'string' || !sameDigest(flow.binding, digest(binding))) throw expired();
  if (!ssoMethodEnabled(ctx.sso, realm, oidcMethodKey(provider))) throw methodOff(provider.displayName);
  const claims = await ctx.oidc.complete(provider, oidcRedirectUri(ctx, realm, provider), callbackUrl, {
    state,
    nonce: String(flow.nonce),
    codeVerifier: String(flow.code_verifier),
  });
  if (!claims.emailVerified)
    throw new SsoRefused(`${provider.displayName} has not verified the email address ${claims.email}.`);
  return admit(
    ctx,
    realm,
    { email: claims.email, fullName: claims.fullName },
    { autoSignup: provider.autoSignup },
    requestOf(flow),
  );
}

function samlAcsUrl(ctx: FlowContext, realm: Realm): string {
  return `${realmUrl(realm, ctx.provisioning.externalUrl)}${SAML_ACS_PATH}`;
}

export function samlIdpNamed(sso: SsoSettings, name: string): SamlIdp | null {
  return sso.saml?.idps.find((idp) => idp.name === name) ?? null;
}

/** GET /accounts/login/social/saml/<idp>: an AuthnRequest by HTTP-Redirect, its ID kept for InResponseTo. */
export async function startSaml(
  ctx: FlowContext,
  realm: Realm,
  idp: SamlIdp | null,
  request: FlowRequest,
): Promise<{ location: string }> {
  if (!idp || !ctx.saml) throw unknownProvider();
  if (!ssoMethodEnabled(ctx.sso, realm, 'SAML')) throw methodOff(idp.displayName);
  checkFlowRequest(request);
  const relayState = random();
  const { url, requestId } = await ctx.saml.authorizeUrl(idp, samlAcsUrl(ctx, realm), relayState);
  // SAML's POST back is cross-site: no cookie of ours comes with it, so the flow is bound by its request ID instead.
  await ctx.flows.put(
    'saml',
    relayState,
    { ...storedFlow(realm, '', request), idp: idp.name, request_id: requestId },
    FLOW_SECONDS,
  );
  return { location: url };
}

/**
 * POST /complete/saml/: the response must carry a signed assertion from the IdP it names (its certificate), for this
 * SP (audience), valid now, never seen before (its ID is kept until it expires), and — when our request started it —
 * in response to that request. IdP-initiated sign-in (no RelayState of ours) lands on the organization of the host.
 */
export async function completeSaml(
  ctx: FlowContext,
  realm: Realm,
  form: { SAMLResponse: string; RelayState: string },
): Promise<string> {
  if (!ctx.saml || !ctx.sso.saml) throw unknownProvider();
  const flow = form.RelayState !== '' ? await ctx.flows.take('saml', form.RelayState) : null;
  if (flow && flow.realm_id !== realm.id) throw expired();
  const issuer = ctx.saml.issuerOf(form.SAMLResponse);
  const idp = ctx.sso.saml.idps.find((i) => i.entityId === issuer) ?? null;
  if (!idp) throw new SsoRefused('This SAML response does not come from an identity provider this server knows.');
  if (flow && flow.idp !== idp.name) throw expired();
  if (!ssoMethodEnabled(ctx.sso, realm, 'SAML')) throw methodOff(idp.displayName);
  const assertion = await ctx.saml.validate(idp, samlAcsUrl(ctx, realm), form.SAMLResponse);
  if (flow && assertion.inResponseTo !== flow.request_id)
    throw new SsoRefused('This SAML response answers another sign-in.');
  if (!flow && assertion.inResponseTo !== null) throw expired();
  const lifetime = assertion.notOnOrAfter
    ? Math.ceil((assertion.notOnOrAfter.getTime() - Date.now()) / 1000) + 60
    : FLOW_SECONDS;
  if (
    !(await ctx.flows.claimOnce('saml-assertion', `${idp.entityId} ${assertion.assertionId}`, Math.max(lifetime, 60)))
  ) {
    throw new SsoRefused('This SAML assertion was already used.');
  }
  const email = (assertion.attributes[idp.attrEmail]?.[0] ?? assertion.nameId).trim();
  if (!email.includes('@')) throw new SsoRefused(`${idp.displayName} sent no email address.`);
  const fullName = assertion.attributes[idp.attrFullName]?.[0] ?? '';
  return admit(
    ctx,
    realm,
    { email, fullName },
    { autoSignup: idp.autoSignup },
    flow ? requestOf(flow) : { mobileFlowOtp: null, desktopFlowOtp: null, next: '/' },
  );
}
