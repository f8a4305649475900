import { randomBytes } from 'node:crypto';
import { SAML, ValidateInResponseTo, type SamlConfig } from '@node-saml/node-saml';
import type { Logger } from '@confab/logging';
import { SsoRefused, type SamlAssertion, type SamlClient } from '../domain/sso/ports.js';
import type { SamlIdp, SamlSettings } from '../domain/sso/settings.js';

/** A little slack between our clock and the IdP's for NotBefore / NotOnOrAfter. */
const CLOCK_SKEW_MS = 30_000;

function values(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (Array.isArray(value)) return value.flatMap(values);
  return typeof value === 'string' ? [value] : [];
}

/**
 * SAML 2.0 through @node-saml/node-saml (xml-crypto underneath): AuthnRequests by HTTP-Redirect, signed with the SP
 * key; responses by HTTP-POST, where the assertion itself must be signed by the IdP's certificate (a signed response
 * around an unsigned assertion is refused), for this SP's entity ID (audience), within its time conditions. The
 * library also refuses what signature wrapping would slip in (the assertion used must be the one that was signed).
 * The assertion's issuer is compared with the IdP's entity ID here (the library checks it only for logout messages).
 */
export class NodeSamlClient implements SamlClient {
  constructor(
    private readonly settings: SamlSettings,
    private readonly logger: Logger,
  ) {}

  private saml(idp: SamlIdp | null, acsUrl: string, requestId?: string): SAML {
    const config: SamlConfig = {
      callbackUrl: acsUrl,
      entryPoint: idp?.ssoUrl ?? acsUrl,
      issuer: this.settings.spEntityId,
      audience: this.settings.spEntityId,
      idpCert: idp?.x509cert ?? this.settings.spCert,
      idpIssuer: idp?.entityId,
      wantAssertionsSigned: true,
      wantAuthnResponseSigned: false,
      privateKey: this.settings.spKey,
      signatureAlgorithm: 'sha256',
      // InResponseTo is checked against the request kept in Redis by the domain (every replica sees it).
      validateInResponseTo: ValidateInResponseTo.never,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      disableRequestedAuthnContext: true,
      ...(requestId ? { generateUniqueId: () => requestId } : {}),
    };
    return new SAML(config);
  }

  metadata(acsUrl: string): string {
    return this.saml(null, acsUrl).generateServiceProviderMetadata(null, this.settings.spCert);
  }

  async authorizeUrl(idp: SamlIdp, acsUrl: string, relayState: string): Promise<{ url: string; requestId: string }> {
    const requestId = `_${randomBytes(20).toString('hex')}`;
    const url = await this.saml(idp, acsUrl, requestId).getAuthorizeUrlAsync(relayState, undefined, {});
    return { url, requestId };
  }

  issuerOf(samlResponse: string): string | null {
    let xml: string;
    try {
      xml = Buffer.from(samlResponse, 'base64').toString('utf8');
    } catch {
      return null;
    }
    const match = /<(?:[A-Za-z0-9_-]+:)?Issuer\b[^>]*>\s*([^<\s][^<]*?)\s*<\//.exec(xml);
    return match ? match[1]! : null;
  }

  async validate(idp: SamlIdp, acsUrl: string, samlResponse: string): Promise<SamlAssertion> {
    let profile: Awaited<ReturnType<SAML['validatePostResponseAsync']>>['profile'];
    try {
      ({ profile } = await this.saml(idp, acsUrl).validatePostResponseAsync({ SAMLResponse: samlResponse }));
    } catch (err) {
      this.logger.info({ err: (err as Error).message, idp: idp.name }, 'SAML response refused');
      throw new SsoRefused(`${idp.displayName} sign-in refused: ${(err as Error).message}`);
    }
    if (!profile) throw new SsoRefused(`${idp.displayName} sent no assertion.`);
    if (profile.issuer !== idp.entityId) {
      throw new SsoRefused(
        `${idp.displayName} sign-in refused: the assertion's issuer is ${profile.issuer ?? 'missing'}, not ${idp.entityId}`,
      );
    }
    const parsed = (profile.getAssertion?.() ?? {}) as {
      Assertion?: { $?: { ID?: string }; Conditions?: Array<{ $?: { NotOnOrAfter?: string } }> };
    };
    const assertionId = parsed.Assertion?.$?.ID;
    if (!assertionId) throw new SsoRefused(`${idp.displayName} sent an assertion without an ID.`);
    const notOnOrAfter = parsed.Assertion?.Conditions?.[0]?.$?.NotOnOrAfter;
    const attributes: Record<string, string[]> = {};
    const source = (profile.attributes ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(source)) attributes[name] = values(value);
    return {
      assertionId,
      issuer: profile.issuer,
      inResponseTo: typeof profile.inResponseTo === 'string' ? profile.inResponseTo : null,
      nameId: profile.nameID ?? '',
      attributes,
      notOnOrAfter: notOnOrAfter ? new Date(notOnOrAfter) : null,
    };
  }
}
