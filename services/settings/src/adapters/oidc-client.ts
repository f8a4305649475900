import type * as Oidc from 'openid-client' with { 'resolution-mode': 'import' };
import type { Logger } from '@confab/logging';
import { SsoRefused, type OidcClaims, type OidcClient, type OidcFlowSecrets } from '../domain/sso/ports.js';
import { isLoopbackUrl, type OidcProvider } from '../domain/sso/settings.js';

/** openid-client is an ES module; this service is CommonJS: loaded once, on first use. */
let library: Promise<typeof Oidc> | undefined;
const load = () => (library ??= import('openid-client'));

/** Discovery documents are kept this long, then fetched again (keys rotate; the JWKS is refetched by the library). */
const DISCOVERY_TTL_MS = 60 * 60_000;

const SCOPES = 'openid email profile';
/** GitHub's scopes: the profile, and the addresses with their verified flags. */
const GITHUB_SCOPES = 'read:user user:email';

/**
 * OpenID Connect and OAuth2 through openid-client: discovery, the authorization code flow with PKCE S256, state and
 * nonce, client_secret_basic, and the id_token checked by the library (signature against the provider's JWKS, issuer,
 * audience, expiry, nonce). GitHub, which has no id_token, is OAuth2 plus its user and emails API.
 */
export class OpenIdClient implements OidcClient {
  private readonly configs = new Map<string, { config: Promise<Oidc.Configuration>; at: number }>();

  constructor(private readonly logger: Logger) {}

  private async configuration(provider: OidcProvider): Promise<Oidc.Configuration> {
    const cached = this.configs.get(provider.name);
    if (cached && Date.now() - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const config = this.build(provider);
    this.configs.set(provider.name, { config, at: Date.now() });
    config.catch(() => this.configs.delete(provider.name));
    return config;
  }

  private async build(provider: OidcProvider): Promise<Oidc.Configuration> {
    const client = await load();
    const insecure = provider.issuer.startsWith('http://') && isLoopbackUrl(provider.issuer);
    const auth = client.ClientSecretBasic(provider.clientSecret);
    if (provider.oauth2) {
      const config = new client.Configuration(
        {
          issuer: provider.issuer,
          authorization_endpoint: provider.oauth2.authorizationUrl,
          token_endpoint: provider.oauth2.tokenUrl,
        },
        provider.clientId,
        { client_secret: provider.clientSecret },
        auth,
      );
      if (insecure || provider.oauth2.tokenUrl.startsWith('http://')) client.allowInsecureRequests(config);
      return config;
    }
    try {
      // enableNonRepudiationChecks: the id_token's signature is verified against the provider's JWKS even though it
      // came straight from the token endpoint (which the library would otherwise trust on TLS alone).
      return await client.discovery(new URL(provider.issuer), provider.clientId, undefined, auth, {
        execute: [...(insecure ? [client.allowInsecureRequests] : []), client.enableNonRepudiationChecks],
      });
    } catch (err) {
      this.logger.warn({ err, provider: provider.name }, 'OpenID Connect discovery failed');
      throw new SsoRefused(`${provider.displayName} cannot be reached right now. Please try again later.`);
    }
  }

  async authorizationUrl(provider: OidcProvider, redirectUri: string, secrets: OidcFlowSecrets): Promise<string> {
    const client = await load();
    const config = await this.configuration(provider);
    const parameters: Record<string, string> = {
      redirect_uri: redirectUri,
      scope: provider.oauth2 ? GITHUB_SCOPES : SCOPES,
      response_type: 'code',
      state: secrets.state,
      code_challenge: await client.calculatePKCECodeChallenge(secrets.codeVerifier),
      code_challenge_method: 'S256',
    };
    if (!provider.oauth2) parameters.nonce = secrets.nonce;
    return client.buildAuthorizationUrl(config, parameters).href;
  }

  async complete(
    provider: OidcProvider,
    redirectUri: string,
    callbackUrl: URL,
    secrets: OidcFlowSecrets,
  ): Promise<OidcClaims> {
    const client = await load();
    const config = await this.configuration(provider);
    // The library compares the callback with the redirect URI it was sent to, so it sees the registered one.
    const current = new URL(redirectUri);
    current.search = callbackUrl.search;
    let tokens: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
    try {
      tokens = await client.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: secrets.codeVerifier,
        expectedState: secrets.state,
        ...(provider.oauth2 ? {} : { expectedNonce: secrets.nonce, idTokenExpected: true }),
      });
    } catch (err) {
      // openid-client's error wraps the protocol library's, which says what exactly failed.
      const cause = (err as { cause?: unknown }).cause;
      const detail = cause instanceof Error ? cause.message : (err as Error).message;
      this.logger.info(
        {
          err: (err as Error).message,
          detail,
          code: (cause as { code?: unknown } | undefined)?.code,
          provider: provider.name,
        },
        'OpenID Connect sign-in refused',
      );
      throw new SsoRefused(`${provider.displayName} did not confirm who you are: ${detail}`);
    }
    if (provider.oauth2) return this.githubClaims(client, config, provider, tokens.access_token);
    const claims = tokens.claims();
    if (!claims) throw new SsoRefused(`${provider.displayName} sent no ID token.`);
    let merged: Record<string, unknown> = { ...claims };
    if (typeof claims.email !== 'string') {
      // Providers that keep the profile out of the ID token answer it at the userinfo endpoint (same subject).
      try {
        merged = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
      } catch (err) {
        throw new SsoRefused(`${provider.displayName} did not say who you are: ${(err as Error).message}`);
      }
    }
    const email = merged.email;
    if (typeof email !== 'string' || email === '')
      throw new SsoRefused(`${provider.displayName} sent no email address.`);
    const name =
      typeof merged.name === 'string'
        ? merged.name
        : [merged.given_name, merged.family_name].filter((v) => typeof v === 'string').join(' ');
    return {
      subject: claims.sub,
      email,
      // Absent (Azure AD) counts as vouched for by the issuer; an explicit false is refused by the domain.
      emailVerified: merged.email_verified !== false && merged.email_verified !== 'false',
      fullName: name,
    };
  }

  /** GitHub: the user, and their primary verified address from the emails API. */
  private async githubClaims(
    client: typeof Oidc,
    config: Oidc.Configuration,
    provider: OidcProvider,
    accessToken: string,
  ): Promise<OidcClaims> {
    const api = provider.oauth2!.apiUrl;
    const headers = new Headers({ accept: 'application/vnd.github+json' });
    const read = async (path: string): Promise<unknown> => {
      const response = await client.fetchProtectedResource(
        config,
        accessToken,
        new URL(`${api}${path}`),
        'GET',
        undefined,
        headers,
      );
      if (!response.ok) throw new SsoRefused(`GitHub answered ${response.status} for ${path}.`);
      return response.json();
    };
    const user = (await read('/user')) as { id?: number; login?: string; name?: string | null };
    const emails = (await read('/user/emails')) as Array<{ email: string; primary: boolean; verified: boolean }>;
    const chosen = emails.find((e) => e.primary && e.verified) ?? emails.find((e) => e.verified);
    if (!chosen) throw new SsoRefused('Your GitHub account has no verified email address.');
    return {
      subject: String(user.id ?? ''),
      email: chosen.email,
      emailVerified: chosen.verified,
      fullName: user.name ?? user.login ?? '',
    };
  }
}
