import type { World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { createLink, logIn, STRONG_PASSWORD, submitSignUp } from './support/invitations';
import { newWorld } from './support/system';

/**
 * The organization's email domains (Zulip's zerver/views/realm_domains.py): every member reads them, administrators
 * add, change and remove them, and every member's client hears of each change (`realm_domains` events). Removing the
 * last domain of an organization restricted to its domains lifts the restriction, as Zulip's do_remove_realm_domain.
 * The sign-up form of an invitation link and POST /invites apply them (sso_signup covers the sign-in with the company's
 * identity).
 */

jest.setTimeout(90_000);

let world: World;
beforeAll(async () => {
  world = await newWorld();
});

const notAdmin = 'Must be an organization administrator';

async function listed(name: Parameters<World['as']>[0] = 'hamlet'): Promise<unknown> {
  const response = await world.as(name).get('/realm/domains');
  expectSuccess(response, 'GET', '/realm/domains', { undocumented: true });
  return response.body.domains;
}

async function registered(name: Parameters<World['as']>[0] = 'othello'): Promise<Record<string, any>> {
  const response = await world.as(name).post('/register', { fetch_event_types: ['realm_domains', 'realm'] });
  expect(response.status).toBe(200);
  return response.body;
}

describe('/realm/domains', () => {
  it('starts empty for GET /realm/domains and /register', async () => {
    expect(await listed()).toEqual([]);
    expect((await registered()).realm_domains).toEqual([]);
  });

  it('an administrator adds a domain (trimmed, lower-cased); every member reads it and hears of it', async () => {
    const queue = await EventQueue.register(world.as('hamlet'), { event_types: ['realm_domains'] });
    const response = await world.as('iago').post('/realm/domains', {
      domain: ' Example.COM ',
      allow_subdomains: false,
    });
    expectSuccess(response, 'POST', '/realm/domains', { undocumented: true });
    expect(response.body.new_domain).toEqual([expect.any(Number), 'example.com']);
    expect(await queue.next((e) => e.type === 'realm_domains')).toEqual({
      id: expect.any(Number),
      type: 'realm_domains',
      op: 'add',
      realm_domain: { domain: 'example.com', allow_subdomains: false },
    });
    expect(await listed('hamlet')).toEqual([{ domain: 'example.com', allow_subdomains: false }]);
    expect((await registered('othello')).realm_domains).toEqual([{ domain: 'example.com', allow_subdomains: false }]);

    // A second domain: the list is alphabetical.
    const second = await world.as('desdemona').post('/realm/domains', { domain: 'acme.org', allow_subdomains: true });
    expectSuccess(second, 'POST', '/realm/domains', { undocumented: true });
    expect(await queue.next((e) => e.type === 'realm_domains' && e.realm_domain?.domain === 'acme.org')).toMatchObject({
      op: 'add',
      realm_domain: { domain: 'acme.org', allow_subdomains: true },
    });
    expect(await listed()).toEqual([
      { domain: 'acme.org', allow_subdomains: true },
      { domain: 'example.com', allow_subdomains: false },
    ]);
  });

  it('refuses a domain the organization has already, in any case', async () => {
    expectError(
      await world.as('iago').post('/realm/domains', { domain: 'EXAMPLE.com', allow_subdomains: true }),
      400,
      'BAD_REQUEST',
      'The domain example.com is already a part of your organization.',
    );
    expect(await listed()).toEqual([
      { domain: 'acme.org', allow_subdomains: true },
      { domain: 'example.com', allow_subdomains: false },
    ]);
  });

  it.each([
    ['', "Domain can't be empty."],
    ['localhost', 'Domain must have at least one dot (.)'],
    [`${'a'.repeat(250)}.example`, 'Domain is too long'],
    ['.example.com', 'Domain cannot start or end with a dot (.)'],
    ['example.com.', 'Domain cannot start or end with a dot (.)'],
    ['mail..example.com', "Consecutive '.' are not allowed."],
    ['-mail.example.com', "Subdomains cannot start or end with a '-'."],
    ['mail_box.example.com', "Domain can only have letters, numbers, '.' and '-'s."],
  ])('refuses the invalid domain %j (Zulip’s validate_domain)', async (domain, reason) => {
    expectError(
      await world.as('iago').post('/realm/domains', { domain, allow_subdomains: false }),
      400,
      'BAD_REQUEST',
      `Invalid domain: ${reason}`,
    );
  });

  it('needs allow_subdomains, a JSON boolean', async () => {
    expectError(
      await world.as('iago').post('/realm/domains', { domain: 'other.example' }),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'allow_subdomains' argument",
    );
    const response = await world
      .as('iago')
      .post('/realm/domains', { domain: 'other.example', allow_subdomains: 'yes' });
    expect({ status: response.status, code: response.body.code }).toEqual({ status: 400, code: 'BAD_REQUEST' });
    expect(await listed()).not.toContainEqual(expect.objectContaining({ domain: 'other.example' }));
  });

  it('is refused to members and moderators: nothing changes', async () => {
    for (const name of ['hamlet', 'shiva'] as const) {
      const client = world.as(name);
      expectError(
        await client.post('/realm/domains', { domain: 'members.example', allow_subdomains: false }),
        400,
        'UNAUTHORIZED_PRINCIPAL',
        notAdmin,
      );
      expectError(
        await client.patch('/realm/domains/example.com', { allow_subdomains: true }),
        400,
        'UNAUTHORIZED_PRINCIPAL',
        notAdmin,
      );
      expectError(await client.delete('/realm/domains/example.com'), 400, 'UNAUTHORIZED_PRINCIPAL', notAdmin);
    }
    expect(await listed()).toEqual([
      { domain: 'acme.org', allow_subdomains: true },
      { domain: 'example.com', allow_subdomains: false },
    ]);
  });

  it('PATCH changes allow_subdomains, with the `change` event; an unknown domain is refused', async () => {
    const queue = await EventQueue.register(world.as('othello'), { event_types: ['realm_domains'] });
    const response = await world.as('iago').patch('/realm/domains/example.com', { allow_subdomains: true });
    expectSuccess(response, 'PATCH', '/realm/domains/example.com', { undocumented: true });
    expect(await queue.next((e) => e.type === 'realm_domains')).toEqual({
      id: expect.any(Number),
      type: 'realm_domains',
      op: 'change',
      realm_domain: { domain: 'example.com', allow_subdomains: true },
    });
    expect(await listed()).toContainEqual({ domain: 'example.com', allow_subdomains: true });
    expect((await registered('hamlet')).realm_domains).toContainEqual({
      domain: 'example.com',
      allow_subdomains: true,
    });

    expectError(
      await world.as('iago').patch('/realm/domains/unknown.example', { allow_subdomains: true }),
      400,
      'BAD_REQUEST',
      'No entry found for domain unknown.example.',
    );
  });

  it('DELETE removes a domain (the `remove` event); the last one lifts emails_restricted_to_domains', async () => {
    const restrict = await world.as('desdemona').patch('/realm', { emails_restricted_to_domains: true });
    expect(restrict.status).toBe(200);
    const queue = await EventQueue.register(world.as('hamlet'), { event_types: ['realm_domains', 'realm'] });

    expectSuccess(await world.as('iago').delete('/realm/domains/acme.org'), 'DELETE', '/realm/domains/acme.org', {
      undocumented: true,
    });
    expect(await queue.next((e) => e.type === 'realm_domains')).toEqual({
      id: expect.any(Number),
      type: 'realm_domains',
      op: 'remove',
      domain: 'acme.org',
    });
    expect(await listed()).toEqual([{ domain: 'example.com', allow_subdomains: true }]);
    // One domain is left: the organization stays restricted to it.
    expect((await registered()).realm_emails_restricted_to_domains).toBe(true);

    expectSuccess(await world.as('iago').delete('/realm/domains/example.com'), 'DELETE', '/realm/domains/example.com', {
      undocumented: true,
    });
    // (The queue may also hold the event of switching the restriction on, made just before it registered.)
    const lifted = await queue.next(
      (e) => e.type === 'realm' && e.property === 'emails_restricted_to_domains' && e.value === false,
    );
    expect(lifted).toMatchObject({ type: 'realm', op: 'update' });
    const removed = await queue.next((e) => e.type === 'realm_domains' && e.domain === 'example.com');
    expect(removed).toMatchObject({ op: 'remove' });
    // Zulip's order: the setting's event, then the domain's.
    expect(lifted.id).toBeLessThan(removed.id);
    const state = await registered();
    expect(state.realm_domains).toEqual([]);
    expect(state.realm_emails_restricted_to_domains).toBe(false);
    expect(await listed()).toEqual([]);

    expectError(
      await world.as('iago').delete('/realm/domains/example.com'),
      400,
      'BAD_REQUEST',
      'No entry found for domain example.com.',
    );
  });
});

describe('invitations in an organization restricted to its domains', () => {
  it('creates an account for an address in a domain, and refuses one outside with Zulip’s message', async () => {
    const added = await world.as('iago').post('/realm/domains', { domain: 'join.example', allow_subdomains: false });
    expect(added.status).toBe(200);
    const restrict = await world.as('desdemona').patch('/realm', { emails_restricted_to_domains: true });
    expect(restrict.status).toBe(200);
    const { link } = await createLink(world.as('iago'));

    const outsider = 'rosencrantz@elsewhere.example';
    const refused = await submitSignUp(link, { full_name: 'Rosencrantz', email: outsider, password: STRONG_PASSWORD });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain(
      `Your email address, ${outsider}, is not in one of the domains that are allowed to register for accounts in ` +
        'this organization.',
    );
    const plus = await submitSignUp(link, {
      full_name: 'Rosencrantz',
      email: 'rosencrantz+chat@join.example',
      password: STRONG_PASSWORD,
    });
    expect(plus.status).toBe(400);
    expect(plus.text).toContain('Email addresses containing + are not allowed in this organization.');

    const insider = 'guildenstern@join.example';
    const created = await submitSignUp(link, { full_name: 'Guildenstern', email: insider, password: STRONG_PASSWORD });
    expect(created.status).toBe(200);
    expect(created.text).toContain('has been created');
    const me = await (await logIn(world, insider, STRONG_PASSWORD)).get('/users/me');
    expect(me.body).toMatchObject({ delivery_email: insider, full_name: 'Guildenstern' });

    const users = await world.as('iago').get('/users');
    const emails = (users.body.members as { delivery_email?: string; email: string }[]).map(
      (u) => u.delivery_email ?? u.email,
    );
    expect(emails).toContain(insider);
    expect(emails).not.toContain(outsider);
    expect(emails).not.toContain('rosencrantz+chat@join.example');
  });

  it('POST /invites refuses addresses outside the domains (Zulip’s validate_email_is_valid) and sends none', async () => {
    const invitees = ['rosalind@elsewhere.example', 'celia+x@join.example', 'not-an-address', 'celia@join.example'];
    const refused = await world.as('iago').post('/invites', { invitee_emails: invitees.join(', '), stream_ids: [] });
    expectError(refused, 400, 'INVITATION_FAILED', "Some emails did not validate, so we didn't send any invitations.");
    expect(refused.body.errors).toEqual([
      ['rosalind@elsewhere.example', 'Outside your domain.', false],
      ['celia+x@join.example', 'Email addresses containing + are not allowed.', false],
      ['not-an-address', 'Invalid address.', false],
    ]);
    expect(refused.body.sent_invitations).toBe(false);
    const pending = async () =>
      ((await world.as('iago').get('/invites')).body.invites as { email?: string }[]).map((i) => i.email);
    expect(await pending()).not.toContain('celia@join.example');

    const invited = await world.as('iago').post('/invites', { invitee_emails: 'celia@join.example', stream_ids: [] });
    expect({ status: invited.status, result: invited.body.result }).toEqual({ status: 200, result: 'success' });
    expect(await pending()).toContain('celia@join.example');
  });
});
