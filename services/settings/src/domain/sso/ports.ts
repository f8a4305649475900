import type { LdapSettings, OidcProvider, SamlIdp } from './settings.js';

/**
 * What the identity flows need from the outside, implemented in adapters/ with well-kept libraries (ldapts,
 * openid-client, @node-saml/node-saml) and in repositories/ (the flows' short-lived state in Redis). The domain never
 * verifies a signature itself.
 */

/** A directory entry: its DN and its attributes' values as text (binary ones, like jpegPhoto, as base64). */
export interface DirectoryEntry {
  dn: string;
  attributes: Record<string, string[]>;
}

export interface Directory {
  /** Entries under the search base matching an already escaped filter, searched as the service account. */
  search(settings: LdapSettings, filter: string, attributes: string[]): Promise<DirectoryEntry[]>;
  /** Whether the directory accepts `password` for `dn` (a simple bind). Never called with an empty password. */
  checkPassword(settings: LdapSettings, dn: string, password: string): Promise<boolean>;
  /**
   * Binds as `dn` with `password` and, when it succeeds, reads that entry (direct bind, no service account); null when the directory refuses the
   * credentials. Callers never pass an empty password (an unauthenticated bind would succeed with any DN).
   */
  bindAndRead(
    settings: LdapSettings,
    dn: string,
    password: string,
    attributes: string[],
  ): Promise<DirectoryEntry | null>;
}

/** The state an OpenID Connect flow carries from its start to the callback. */
export interface OidcFlowSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

/** The claims a verified sign-in gave (the id_token's, or GitHub's user and emails API). */
export interface OidcClaims {
  subject: string;
  email: string;
  emailVerified: boolean;
  fullName: string;
}

export interface OidcClient {
  /** The provider's authorization URL (PKCE S256, state, nonce; scopes `openid email profile`). */
  authorizationUrl(provider: OidcProvider, redirectUri: string, secrets: OidcFlowSecrets): Promise<string>;
  /**
   * Exchanges the code of the callback (`callbackUrl`, the whole URL the browser came back to) for tokens and verifies
   * them: state, the id_token's signature against the JWKS, issuer, audience, expiry and nonce. Throws SsoRefused.
   */
  complete(
    provider: OidcProvider,
    redirectUri: string,
    callbackUrl: URL,
    secrets: OidcFlowSecrets,
  ): Promise<OidcClaims>;
}

/** What a verified SAML response asserted. */
export interface SamlAssertion {
  assertionId: string;
  issuer: string;
  inResponseTo: string | null;
  nameId: string;
  attributes: Record<string, string[]>;
  /** The end of the assertion's validity (its replay entry is kept until then). */
  notOnOrAfter: Date | null;
}

export interface SamlClient {
  /** The SP metadata (entity ID, ACS, signing certificate). */
  metadata(acsUrl: string): string;
  /** An AuthnRequest by HTTP-Redirect: the URL to send the browser to, and the request's ID. */
  authorizeUrl(idp: SamlIdp, acsUrl: string, relayState: string): Promise<{ url: string; requestId: string }>;
  /** The IdP the response says it comes from (unverified: only to choose whose certificate verifies it). */
  issuerOf(samlResponse: string): string | null;
  /** Verifies a POSTed SAMLResponse: a signed assertion, audience, issuer, time conditions. Throws SsoRefused. */
  validate(idp: SamlIdp, acsUrl: string, samlResponse: string): Promise<SamlAssertion>;
}

/** Short-lived state of the flows, shared by every replica (Redis). */
export interface SsoFlowStore {
  put(kind: string, key: string, value: Record<string, unknown>, ttlSeconds: number): Promise<void>;
  /** The value, removed in the same step (a state or a login token is used once). */
  take(kind: string, key: string): Promise<Record<string, unknown> | null>;
  /** True the first time a key is claimed within its lifetime (an assertion ID seen twice is a replay). */
  claimOnce(kind: string, key: string, ttlSeconds: number): Promise<boolean>;
}

/**
 * The invitations service: a pending email invitation of the address accepted for a person the identity provider
 * vouched for (the invitation's role, channels and groups, as its sign-up form gives them; then it is used up).
 * Resolves to the new account's id, or null when the address has no pending invitation; a refusal is a Zulip error.
 */
export interface PendingInvitations {
  acceptBySso(realmId: number, email: string, fullName: string): Promise<number | null>;
}

/** A refused sign-in: the browser goes back to the sign-in page with `message` shown. */
export class SsoRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SsoRefused';
  }
}
