import { randomBytes } from 'node:crypto';
import { freePort, type ApiClient, type World } from '@confab/devkit';
import { channelIds, setLinkExpiry } from './support/invitations';
import {
  cookiesOf,
  decryptOtp,
  loginError,
  startOidcIdp,
  throughIdp,
  useSsoStack,
  type SsoStack,
  type TestIdp,
} from './support/sso';
import { newWorld } from './support/system';

/**
 * Who gets an account on a first sign-in with the company's identity (Zulip's login_or_register_remote_user and
 * maybe_send_to_registration), against a real OpenID provider: a pending email invitation is accepted — its role and
 * channels, as the invitation's sign-up form gives them — and used up; a stranger, a revoked or expired invitation
 * get the reason on the sign-in page; the organization's email rules (restricted domains, disposable addresses)
 * refuse an address even with the provider's auto_signup, and the domains the organization adds (/realm/domains) let
 * their people in. (The directory's people are the exception: sso_ldap.)
 */

jest.setTimeout(120_000);

const OTP = randomBytes(32).toString('hex');
const tag = randomBytes(4).toString('hex');
const address = (name: string, domain = 'corp.example') => `${name}-${tag}@${domain}`;
const PEOPLE = {
  invited: address('viola'),
  again: address('sebastian'),
  revoked: address('antonio'),
  expired: address('malvolio'),
  stranger: address('feste'),
  throwaway: address('toby', 'mailinator.com'),
  outside: address('maria'),
  outsideInvited: address('olivia'),
  // The domains the restricted organization adds (unique to this run's tag).
  partner: address('nerissa', `partner-${tag}.example`),
  partnerBranch: address('portia', `eu.partner-${tag}.example`),
};
type Person = keyof typeof PEOPLE | 'member';

interface InviteEntry {
  id: number;
  email?: string;
  is_multiuse: boolean;
}

describe('first sign-in with SSO: invitations and the email rules (real OpenID provider)', () => {
  const startStack = useSsoStack();
  let idp: TestIdp;
  let world: World;
  let restricted: World;
  let stack: SsoStack;

  beforeAll(async () => {
    [world, restricted] = await Promise.all([newWorld(), newWorld()]);
    const port = await freePort();
    const realmUrls = [world, restricted].map((w) => `http://${w.realm.string_id}.localhost:${port}`);
    idp = await startOidcIdp({
      clients: ['strict', 'trusting'].map((name) => ({
        client_id: `${name}-client`,
        client_secret: `${name}-client-secret-0123456789`,
        redirect_uris: realmUrls.map((url) => `${url}/complete/oidc/${name}/`),
        token_endpoint_auth_method: 'client_secret_basic',
        grant_types: ['authorization_code'],
        response_types: ['code'],
      })),
      accounts: {
        ...Object.fromEntries(
          Object.entries(PEOPLE).map(([name, email]) => [
            name,
            { email, email_verified: true, name: `${name} ${tag}` },
          ]),
        ),
        member: { email: restricted.user('hamlet').email, email_verified: true, name: 'Hamlet' },
      },
    });
    const provider = (name: string, autoSignup: boolean) => ({
      name,
      display_name: `${name} SSO`,
      issuer: idp.issuer,
      client_id: `${name}-client`,
      client_secret: `${name}-client-secret-0123456789`,
      auto_signup: autoSignup,
    });
    stack = await startStack(
      { CONFAB_OIDC_PROVIDERS: JSON.stringify([provider('strict', false), provider('trusting', true)]) },
      port,
    );
    const patched = await restricted.as('desdemona').patch('/realm', { emails_restricted_to_domains: true });
    expect(patched.status).toBe(200);
  }, 300_000);

  afterAll(async () => {
    await idp?.stop();
  });

  /** A whole sign-in as `person` at the provider: our callback's redirect (a session step, zulip://, or refusal). */
  async function signIn(w: World, provider: string, person: Person, query = ''): Promise<string> {
    await idp.nextLogin(person);
    const start = await stack.browse(w, `/accounts/login/social/oidc/${provider}${query}`);
    expect(start.status).toBe(302);
    const callback = await throughIdp(idp.issuer, start.location);
    const answer = await stack.browse(w, callback, { cookie: cookiesOf(start) });
    expect(answer.status).toBe(302);
    return answer.location;
  }

  /** The mobile flow's sign-in: a client with the API key the zulip:// redirect carries. */
  async function appSignIn(w: World, provider: string, person: Person): Promise<ApiClient> {
    const location = await signIn(w, provider, person, `?mobile_flow_otp=${OTP}`);
    expect(loginError(location)).toBeNull();
    const redirect = new URL(location);
    expect(`${redirect.protocol}//${redirect.host}`).toBe('zulip://login');
    const apiKey = decryptOtp(redirect.searchParams.get('otp_encrypted_api_key')!, OTP);
    return stack.anonymous(w).withCredentials(redirect.searchParams.get('email')!, apiKey);
  }

  async function invite(
    w: World,
    person: keyof typeof PEOPLE,
    params: Record<string, unknown> = {},
  ): Promise<InviteEntry> {
    const response = await w.as('iago').post('/invites', { invitee_emails: PEOPLE[person], stream_ids: [], ...params });
    expect(response.status).toBe(200);
    const entry = (await pendingInvites(w)).find((i) => i.email === PEOPLE[person]);
    expect(entry).toBeDefined();
    return entry!;
  }

  async function pendingInvites(w: World): Promise<InviteEntry[]> {
    const response = await w.as('iago').get('/invites');
    expect(response.status).toBe(200);
    return response.body.invites as InviteEntry[];
  }

  async function accountEmails(w: World): Promise<string[]> {
    const users = await w.as('iago').get('/users');
    return (users.body.members as Array<{ email: string; delivery_email?: string }>).map(
      (u) => u.delivery_email ?? u.email,
    );
  }

  it('without auto_signup, an invited person gets the account with the invitation’s role and channels; it is used up', async () => {
    const ids = await channelIds(world.as('iago'));
    await invite(world, 'invited', { invite_as: 300, stream_ids: [ids.Denmark, ids.Verona] });
    const viola = await appSignIn(world, 'strict', 'invited');
    const me = await viola.get('/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ delivery_email: PEOPLE.invited, full_name: `invited ${tag}`, role: 300 });
    const subscriptions = await viola.get('/users/me/subscriptions');
    expect(subscriptions.status).toBe(200);
    const names = (subscriptions.body.subscriptions as Array<{ name: string }>).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['Denmark', 'Verona']));
    // The invitation is gone from the administrators' list, and the next sign-in finds the same account.
    expect((await pendingInvites(world)).map((i) => i.email)).not.toContain(PEOPLE.invited);
    const again = await appSignIn(world, 'strict', 'invited');
    expect((await again.get('/users/me')).body.user_id).toBe(me.body.user_id);
  });

  it('the invited person can also land in a browser session (the web sign-in)', async () => {
    await invite(world, 'again');
    const location = await signIn(world, 'strict', 'again');
    expect(loginError(location)).toBeNull();
    expect(new URL(location).pathname).toMatch(/^\/accounts\/login\/subdomain\//);
    const session = await stack.browse(world, location);
    expect(session.status).toBe(302);
    const me = await stack.anonymous(world).get('/json/users/me', {}, { headers: { cookie: cookiesOf(session) } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ delivery_email: PEOPLE.again, role: 400 });
  });

  it('a stranger, a revoked and an expired invitation: refused with the reason on the sign-in page, no account', async () => {
    const reason = (email: string) =>
      `There is no account for ${email} in this organization. Ask an administrator for an invitation.`;
    const stranger = await signIn(world, 'strict', 'stranger');
    expect(new URL(stranger).pathname).toBe('/');
    expect(loginError(stranger)).toBe(reason(PEOPLE.stranger));

    const revoked = await invite(world, 'revoked');
    expect((await world.as('iago').delete(`/invites/${revoked.id}`)).status).toBe(200);
    expect(loginError(await signIn(world, 'strict', 'revoked'))).toBe(reason(PEOPLE.revoked));

    const expired = await invite(world, 'expired');
    await setLinkExpiry(expired.id, -1);
    expect(loginError(await signIn(world, 'strict', 'expired'))).toBe(reason(PEOPLE.expired));

    const emails = await accountEmails(world);
    for (const person of ['stranger', 'revoked', 'expired'] as const) expect(emails).not.toContain(PEOPLE[person]);
  });

  it('auto_signup does not bypass the email rules: a disposable address is refused (Zulip’s message)', async () => {
    const location = await signIn(world, 'trusting', 'throwaway');
    expect(loginError(location)).toBe('Please use your real email address.');
    expect(await accountEmails(world)).not.toContain(PEOPLE.throwaway);
  });

  it('an organization restricted to its domains refuses an address outside them, with auto_signup or an invitation', async () => {
    const outside = (email: string) =>
      `Your email address, ${email}, is not in one of the domains that are allowed to register for accounts in this organization.`;
    expect(loginError(await signIn(restricted, 'trusting', 'outside'))).toBe(outside(PEOPLE.outside));
    // POST /invites refuses the address now (Zulip's "Outside your domain."): the invitation is one made before the
    // organization was restricted to its domains.
    const refused = await restricted
      .as('iago')
      .post('/invites', { invitee_emails: PEOPLE.outsideInvited, stream_ids: [] });
    expect({ status: refused.status, errors: refused.body.errors }).toEqual({
      status: 400,
      errors: [[PEOPLE.outsideInvited, 'Outside your domain.', false]],
    });
    const restrict = (on: boolean) => restricted.as('desdemona').patch('/realm', { emails_restricted_to_domains: on });
    expect((await restrict(false)).status).toBe(200);
    await invite(restricted, 'outsideInvited');
    expect((await restrict(true)).status).toBe(200);
    expect(loginError(await signIn(restricted, 'strict', 'outsideInvited'))).toBe(outside(PEOPLE.outsideInvited));
    const emails = await accountEmails(restricted);
    expect(emails).not.toContain(PEOPLE.outside);
    expect(emails).not.toContain(PEOPLE.outsideInvited);
    // The invitation was not spent by the refused sign-in.
    expect((await pendingInvites(restricted)).map((i) => i.email)).toContain(PEOPLE.outsideInvited);
    // The rule governs sign-ups only: an existing account outside the domains still signs in.
    const hamlet = await appSignIn(restricted, 'strict', 'member');
    expect((await hamlet.get('/users/me')).body.user_id).toBe(restricted.user('hamlet').id);
  });

  it('an added domain lets its people in to the restricted organization; its subdomains only with allow_subdomains', async () => {
    const outside = (email: string) =>
      `Your email address, ${email}, is not in one of the domains that are allowed to register for accounts in this organization.`;
    const domain = `partner-${tag}.example`;
    const added = await restricted.as('iago').post('/realm/domains', { domain, allow_subdomains: false });
    expect({ status: added.status, new_domain: added.body.new_domain }).toEqual({
      status: 200,
      new_domain: [expect.any(Number), domain],
    });
    const nerissa = await appSignIn(restricted, 'trusting', 'partner');
    expect((await nerissa.get('/users/me')).body).toMatchObject({ delivery_email: PEOPLE.partner, role: 400 });

    // eu.partner-….example is not partner-….example itself.
    expect(loginError(await signIn(restricted, 'trusting', 'partnerBranch'))).toBe(outside(PEOPLE.partnerBranch));
    expect(await accountEmails(restricted)).not.toContain(PEOPLE.partnerBranch);

    const opened = await restricted.as('iago').patch(`/realm/domains/${domain}`, { allow_subdomains: true });
    expect(opened.status).toBe(200);
    const portia = await appSignIn(restricted, 'trusting', 'partnerBranch');
    expect((await portia.get('/users/me')).body).toMatchObject({ delivery_email: PEOPLE.partnerBranch });
    // Addresses outside every domain are still refused.
    expect(loginError(await signIn(restricted, 'trusting', 'outside'))).toBe(outside(PEOPLE.outside));
  });
});
