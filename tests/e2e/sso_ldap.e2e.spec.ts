import { startSlapd, type Slapd, type World } from '@confab/devkit';
import { Client } from 'ldapts';
import { expectError } from './support/expect';
import {
  cookiesOf,
  LDAP_PEOPLE as PEOPLE,
  ldapDn as dn,
  ldapPerson as person,
  runLdapSync as runSync,
  useSsoStack,
  type SsoStack,
} from './support/sso';
import { newWorld } from './support/system';

/**
 * LDAP sign-in against a real OpenLDAP (Debian's slapd, started here on a random port): search-then-bind with a
 * service account, users made on first login from their entry, the password login of every client (POST
 * /fetch_api_key, the web sign-in), the refusals (filter injection, an empty password, disabled accounts), the
 * organization switching the method off, and the directory sync (`cli.js sync-ldap`).
 */

describe('LDAP / Active Directory sign-in (real slapd)', () => {
  const startStack = useSsoStack();
  let directory: Slapd;
  let world: World;
  let stack: SsoStack;
  let ldapEnv: Record<string, string>;
  const client = () => stack.anonymous(world);

  beforeAll(async () => {
    directory = await startSlapd();
    await directory.add(dn('ophelia'), person('ophelia', 'Ophelia Polonius', 'nunnery-secret-1'));
    await directory.add(dn('laertes'), person('laertes', 'Laertes', 'rapier-secret-2', { userAccountControl: '514' }));
    await directory.add(dn('yorick'), person('yorick', 'Yorick', 'jester-secret-3', { confabDisabled: 'TRUE' }));
    await directory.add(dn('horatio'), person('horatio', 'Horatio', 'friend-secret-4'));
    world = await newWorld();
    ldapEnv = {
      CONFAB_LDAP_URL: directory.url,
      CONFAB_LDAP_BIND_DN: directory.adminDn,
      CONFAB_LDAP_BIND_PASSWORD: directory.adminPassword,
      CONFAB_LDAP_USER_SEARCH_BASE: PEOPLE,
      CONFAB_LDAP_DEACTIVATED_ATTR: 'confabDisabled',
      CONFAB_LDAP_SYNC_INTERVAL_SECONDS: '0',
    };
    stack = await startStack(ldapEnv);
  }, 300_000);

  afterAll(async () => {
    await directory?.stop();
  });

  it('the directory itself accepts an unauthenticated bind (so the empty-password test below means something)', async () => {
    const raw = new Client({ url: directory.url });
    await expect(raw.bind(dn('ophelia'), '')).resolves.toBeUndefined();
    await raw.unbind();
  });

  it('/server_settings: ldap and password on, uid logins allowed; without the variables nothing changes', async () => {
    const on = await client().get('/server_settings');
    expect(on.body.authentication_methods).toMatchObject({ ldap: true, password: true, email: true });
    expect(on.body.require_email_format_usernames).toBe(false);
    const off = await world.anonymous().get('/server_settings');
    expect(off.body.authentication_methods).toMatchObject({ ldap: false, password: true });
    expect(off.body.require_email_format_usernames).toBe(true);
    expect(off.body.external_authentication_methods).toEqual([]);
  });

  it('first login with the uid creates the user from the entry; the key works; a second login by email finds them', async () => {
    const first = await client().post('/fetch_api_key', { username: 'ophelia', password: 'nunnery-secret-1' });
    expect(first.status).toBe(200);
    expect(first.body.email).toBe('ophelia@example.com');
    const me = await client().withCredentials('ophelia@example.com', first.body.api_key).get('/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ full_name: 'Ophelia Polonius', user_id: first.body.user_id, role: 400 });
    const second = await client().post('/fetch_api_key', {
      username: 'ophelia@example.com',
      password: 'nunnery-secret-1',
    });
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ user_id: first.body.user_id, api_key: first.body.api_key });
    // The organization's own passwords still work beside the directory's.
    const hamlet = await client().post('/fetch_api_key', { username: 'hamlet@zulip.com', password: 'confab-dev' });
    expect(hamlet.status).toBe(200);
  });

  it('refuses a filter injection, a wrong password and an empty one (before any bind)', async () => {
    for (const username of ['*)(uid=*', '*', 'ophelia)(|(uid=*', '*)(mail=*']) {
      const response = await client().post('/fetch_api_key', { username, password: 'nunnery-secret-1' });
      expectError(response, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    }
    const wrong = await client().post('/fetch_api_key', { username: 'horatio', password: 'not-his-password' });
    expectError(wrong, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    const empty = await client().post('/fetch_api_key', { username: 'horatio', password: '' });
    expectError(empty, 401, 'AUTHENTICATION_FAILED', 'Your username or password is incorrect');
    // Nobody was made an account by those attempts.
    const users = await world.as('iago').get('/users');
    const emails = (users.body.members as Array<{ email: string; delivery_email?: string }>).map(
      (u) => u.delivery_email ?? u.email,
    );
    expect(emails).not.toContain('horatio@example.com');
  });

  it("refuses accounts the directory disables (AD's ACCOUNTDISABLE bit, the configured attribute)", async () => {
    for (const [username, password] of [
      ['laertes', 'rapier-secret-2'],
      ['yorick', 'jester-secret-3'],
    ]) {
      const response = await client().post('/fetch_api_key', { username, password });
      expectError(response, 401, 'USER_DEACTIVATED', 'Account is deactivated');
    }
  });

  it('the web sign-in accepts directory credentials and ends in a normal session', async () => {
    const login = await client().post('/accounts/login', { username: 'horatio', password: 'friend-secret-4' });
    expect(login.status).toBe(200);
    const cookie = cookiesOf(login);
    const me = await client().get('/json/users/me', {}, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ email: expect.any(String), full_name: 'Horatio' });
  });

  it('PATCH /realm authentication_methods switches LDAP off at once, and on again', async () => {
    const owner = stack.as(world, 'desdemona');
    const state = await stack.initialState(world.user('desdemona').id);
    expect(state.realm_authentication_methods).toEqual({
      Email: { enabled: true, available: true },
      LDAP: { enabled: true, available: true },
      ...(state.realm_authentication_methods.JWT ? { JWT: { enabled: true, available: true } } : {}),
    });
    expect(state.realm_password_auth_enabled).toBe(true);
    const off = await owner.patch('/realm', { authentication_methods: JSON.stringify({ Email: true, LDAP: false }) });
    expect(off.status).toBe(200);
    expectError(
      await client().post('/fetch_api_key', { username: 'ophelia', password: 'nunnery-secret-1' }),
      400,
      'BAD_REQUEST',
      'Enter a valid email address.',
    );
    expectError(
      await client().post('/fetch_api_key', { username: 'ophelia@example.com', password: 'nunnery-secret-1' }),
      401,
      'AUTHENTICATION_FAILED',
      'Your username or password is incorrect',
    );
    expect((await client().get('/server_settings')).body.authentication_methods.ldap).toBe(false);
    expect((await stack.initialState(world.user('desdemona').id)).realm_authentication_methods.LDAP.enabled).toBe(
      false,
    );
    const on = await owner.patch('/realm', { authentication_methods: JSON.stringify({ Email: true, LDAP: true }) });
    expect(on.status).toBe(200);
    expect((await client().post('/fetch_api_key', { username: 'ophelia', password: 'nunnery-secret-1' })).status).toBe(
      200,
    );
  });

  it("the directory is trusted for the address: an organization's allowed domains don't refuse its people", async () => {
    const restricted = await newWorld();
    const owner = restricted.as('desdemona');
    expect((await owner.patch('/realm', { emails_restricted_to_domains: true })).status).toBe(200);
    await directory.add(
      dn('guildenstern'),
      person('guildenstern', 'Guildenstern', 'courtier-secret-5', { mail: 'guildenstern@mailinator.com' }),
    );
    // example.com and a throwaway-mail domain: neither is among the organization's domains (it has none).
    for (const [username, password, email] of [
      ['horatio', 'friend-secret-4', 'horatio@example.com'],
      ['guildenstern', 'courtier-secret-5', 'guildenstern@mailinator.com'],
    ]) {
      const login = await stack.anonymous(restricted).post('/fetch_api_key', { username, password });
      expect(login.status).toBe(200);
      expect(login.body.email).toBe(email);
      const me = await stack.anonymous(restricted).withCredentials(email!, login.body.api_key).get('/users/me');
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ delivery_email: email, role: 400 });
    }
  });

  it('sync-ldap: names follow the directory, a disabled entry deactivates the account (and its key stops working)', async () => {
    const login = await client().post('/fetch_api_key', { username: 'ophelia', password: 'nunnery-secret-1' });
    const ophelia = { id: login.body.user_id as number, key: login.body.api_key as string };
    await directory.replace(dn('horatio'), { cn: 'Horatio the Scholar' });
    await directory.replace(dn('ophelia'), { userAccountControl: '514' });
    const report = await runSync(ldapEnv, world.realm.string_id);
    expect(report).toEqual({ realms: 1, renamed: 1, deactivated: 1, reactivated: 0, avatars: 0, profiles: 0 });
    const admin = stack.as(world, 'iago');
    const users = (await admin.get('/users')).body.members as Array<{
      user_id: number;
      full_name: string;
      is_active: boolean;
    }>;
    expect(users.find((u) => u.full_name === 'Horatio the Scholar')).toBeDefined();
    const state = await admin.get(`/users/${ophelia.id}`);
    expect(state.body.user.is_active).toBe(false);
    // The organization's own accounts, unknown to the directory, stay (its password method is on).
    expect((await admin.get(`/users/${world.user('hamlet').id}`)).body.user.is_active).toBe(true);
    expectError(
      await client().post('/fetch_api_key', { username: 'ophelia', password: 'nunnery-secret-1' }),
      401,
      'USER_DEACTIVATED',
      'Account is deactivated',
    );
    const me = await client().withCredentials('ophelia@example.com', ophelia.key).get('/users/me');
    expect(me.status).toBe(401);
  });
});
