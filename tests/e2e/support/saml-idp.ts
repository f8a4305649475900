import { randomBytes } from 'node:crypto';
import * as samlify from 'samlify';
import { keyAndCertificate } from './sso';

/**
 * A SAML identity provider made in the test with samlify: its key and certificate from openssl, its responses signed
 * by samlify (xml-crypto). The XML is written here so that a test can make any response, good or hostile.
 */

export const IDP_ENTITY = 'https://idp.test.example/metadata';
export const IDP_SSO_URL = 'https://idp.test.example/sso';

export interface AssertionSpec {
  email: string;
  name?: string;
  audience?: string;
  /** The response's issuer (and the assertion's, unless `assertionIssuer`). */
  issuer?: string;
  assertionIssuer?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  inResponseTo?: string;
  assertionId?: string;
}

export const samlId = () => `_${randomBytes(16).toString('hex')}`;

export class TestSamlIdp {
  readonly keys = keyAndCertificate('idp.test.example');
  private readonly idp: ReturnType<typeof samlify.IdentityProvider>;

  constructor(
    readonly spEntityId: string,
    readonly acsUrl: string,
    readonly ssoUrl = IDP_SSO_URL,
  ) {
    this.idp = samlify.IdentityProvider({
      entityID: IDP_ENTITY,
      privateKey: this.keys.key,
      signingCert: this.keys.cert,
      singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: ssoUrl }],
      nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
    });
  }

  /** CONFAB_SAML_IDPS' entry for this IdP (the certificate as Zulip's bare base64). */
  config(extra: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      name: 'testidp',
      display_name: 'Test IdP',
      entity_id: IDP_ENTITY,
      sso_url: this.ssoUrl,
      x509cert: this.keys.cert.replace(/-----[^-]+-----/g, '').replace(/\s+/g, ''),
      attr_email: 'email',
      attr_full_name: 'name',
      ...extra,
    };
  }

  responseXml(a: AssertionSpec): string {
    const now = new Date();
    const irt = a.inResponseTo ? ` InResponseTo="${a.inResponseTo}"` : '';
    return (
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${samlId()}" Version="2.0" IssueInstant="${now.toISOString()}" Destination="${this.acsUrl}"${irt}>` +
      `<saml:Issuer>${a.issuer ?? IDP_ENTITY}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
      this.assertionXml(a) +
      `</samlp:Response>`
    );
  }

  assertionXml(a: AssertionSpec): string {
    const now = new Date();
    const notBefore = (a.notBefore ?? new Date(now.getTime() - 60_000)).toISOString();
    const notOnOrAfter = (a.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000)).toISOString();
    const irt = a.inResponseTo ? ` InResponseTo="${a.inResponseTo}"` : '';
    return (
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" ID="${a.assertionId ?? samlId()}" Version="2.0" IssueInstant="${now.toISOString()}">` +
      `<saml:Issuer>${a.assertionIssuer ?? a.issuer ?? IDP_ENTITY}</saml:Issuer>` +
      `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${a.email}</saml:NameID>` +
      `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${this.acsUrl}"${irt}/></saml:SubjectConfirmation></saml:Subject>` +
      `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${a.audience ?? this.spEntityId}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${now.toISOString()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
      `<saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue xsi:type="xs:string">${a.email}</saml:AttributeValue></saml:Attribute>` +
      `<saml:Attribute Name="name"><saml:AttributeValue xsi:type="xs:string">${a.name ?? 'Test Person'}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>` +
      `</saml:Assertion>`
    );
  }

  /** A response (base64) signed by the IdP: the assertion; or, with `assertionSigned: false`, only the response. */
  async signedResponse(a: AssertionSpec, assertionSigned = true): Promise<string> {
    const sp = samlify.ServiceProvider({
      entityID: this.spEntityId,
      assertionConsumerService: [{ Binding: samlify.Constants.namespace.binding.post, Location: this.acsUrl }],
      wantAssertionsSigned: assertionSigned,
      wantMessageSigned: !assertionSigned,
    });
    const xml = this.responseXml(a);
    const made = await this.idp.createLoginResponse(sp, {} as never, 'post', { email: a.email }, () => ({
      id: 'unused',
      context: xml,
    }));
    return (made as { context: string }).context;
  }
}
