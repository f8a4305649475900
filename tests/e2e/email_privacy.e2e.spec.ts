import { randomBytes } from 'node:crypto';
import type { ApiClient, World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { setRealmPolicies } from './support/internal';
import { createLink, logIn, STRONG_PASSWORD, submitSignUp } from './support/invitations';
import { newWorld } from './support/system';

// Zulip's email_address_visibility (issue 30, finding 3): 1 everyone, 2 members, 3 administrators, 4 nobody,
// 5 moderators. Those the setting does not admit see the dummy API email and a null delivery_email, and a lookup by
// the real address answers them as if it did not exist.
const ADMINS = 3;
const MEMBERS = 2;

type UserRow = { user_id: number; email: string; delivery_email: string | null };

describe('email address visibility', () => {
  let world: World;
  let hamlet: { id: number; email: string };
  let dummy: string;
  beforeAll(async () => {
    world = await newWorld();
    hamlet = world.user('hamlet');
    dummy = `user${hamlet.id}@${world.host.replace(/:\d+$/, '')}`;
  });

  const row = (rows: UserRow[], id: number) => rows.find((r) => r.user_id === id)!;

  it('by default everyone sees the real address', async () => {
    const seen = await world.as('polonius').get(`/users/${hamlet.id}`);
    expect(seen.body.user).toEqual(expect.objectContaining({ email: hamlet.email, delivery_email: hamlet.email }));
  });

  it('PATCH /settings email_address_visibility refuses an unknown value', async () => {
    expectError(
      await world.as('hamlet').patch('/settings', { email_address_visibility: 7 }),
      400,
      'BAD_REQUEST',
      'Invalid email_address_visibility',
    );
  });

  describe('a user who shows their address to administrators only', () => {
    beforeAll(async () => {
      const changed = await world.as('hamlet').patch('/settings', { email_address_visibility: ADMINS });
      expectSuccess(changed, 'PATCH', '/settings');
    });

    it('is addressed by the dummy API email; they still see their own address and setting', async () => {
      const me = await world.as('hamlet').get('/users/me');
      expect(me.body).toEqual(expect.objectContaining({ email: dummy, delivery_email: hamlet.email }));
      const state = await world.as('hamlet').post('/register', { fetch_event_types: ['user_settings'] });
      expect(state.body.user_settings.email_address_visibility).toBe(ADMINS);
    });

    it('members see no real address in GET /users, GET /users/{user_id} or /register', async () => {
      const othello = world.as('othello');
      const listed = await othello.get('/users');
      expect(row(listed.body.members as UserRow[], hamlet.id)).toEqual(
        expect.objectContaining({ email: dummy, delivery_email: null }),
      );
      expect(listed.text).not.toContain(hamlet.email);
      const one = await othello.get(`/users/${hamlet.id}`);
      expect(one.body.user).toEqual(expect.objectContaining({ email: dummy, delivery_email: null }));
      expect(one.text).not.toContain(hamlet.email);
      const registered = await othello.post('/register', { fetch_event_types: ['realm_user'] });
      expect(row(registered.body.realm_users as UserRow[], hamlet.id)).toEqual(
        expect.objectContaining({ email: dummy, delivery_email: null }),
      );
      expect(registered.text).not.toContain(hamlet.email);
    });

    it('administrators see the real address', async () => {
      const iago = world.as('iago');
      const one = await iago.get(`/users/${hamlet.id}`);
      expect(one.body.user).toEqual(expect.objectContaining({ email: dummy, delivery_email: hamlet.email }));
      const listed = await iago.get('/users');
      expect(row(listed.body.members as UserRow[], hamlet.id).delivery_email).toBe(hamlet.email);
    });

    it('GET /users/{email} by the real address reveals nothing to a member; the dummy address works', async () => {
      const othello = world.as('othello');
      const hidden = await othello.get(`/users/${encodeURIComponent(hamlet.email)}`);
      const nobody = await othello.get(`/users/${encodeURIComponent('nobody-at-all@zulip.com')}`);
      expectError(hidden, 400, 'BAD_REQUEST', 'No such user');
      expect({ status: hidden.status, body: hidden.body }).toEqual({ status: nobody.status, body: nobody.body });
      const byDummy = await othello.get(`/users/${encodeURIComponent(dummy)}`);
      expect(byDummy.body.user).toEqual(expect.objectContaining({ user_id: hamlet.id, delivery_email: null }));
      const byAdmin = await world.as('iago').get(`/users/${encodeURIComponent(hamlet.email)}`);
      expect(byAdmin.body.user).toEqual(expect.objectContaining({ user_id: hamlet.id }));
    });

    it('the user still signs in with the real address', async () => {
      expect((await world.as('hamlet').get('/users/me')).body.user_id).toBe(hamlet.id);
    });

    it('showing it to everyone again makes the real address the API email', async () => {
      expectSuccess(await world.as('hamlet').patch('/settings', { email_address_visibility: 1 }), 'PATCH', '/settings');
      const one = await world.as('othello').get(`/users/${hamlet.id}`);
      expect(one.body.user).toEqual(expect.objectContaining({ email: hamlet.email, delivery_email: hamlet.email }));
      expectSuccess(
        await world.as('hamlet').patch('/settings', { email_address_visibility: ADMINS }),
        'PATCH',
        '/settings',
      );
    });
  });

  it("new users start with the organization's default, in the API and in realm_user events", async () => {
    await setRealmPolicies(world.realm.realm_id, { default_email_address_visibility: MEMBERS });
    const guest: ApiClient = world.as('polonius');
    const member: ApiClient = world.as('othello');
    const guestQueue = await EventQueue.register(guest, { event_types: ['realm_user'] });
    const memberQueue = await EventQueue.register(member, { event_types: ['realm_user'] });
    const { link } = await createLink(world.as('iago'));
    const email = `private-${randomBytes(4).toString('hex')}@example.com`;
    expect((await submitSignUp(link, { full_name: 'Ophelia', email, password: STRONG_PASSWORD })).status).toBe(200);
    const ophelia = await logIn(world, email, STRONG_PASSWORD);
    const id = (await ophelia.get('/users/me')).body.user_id as number;
    const api = `user${id}@${world.host.replace(/:\d+$/, '')}`;

    const byGuest = await guest.get(`/users/${id}`);
    expect(byGuest.body.user).toEqual(expect.objectContaining({ email: api, delivery_email: null }));
    const byMember = await member.get(`/users/${id}`);
    expect(byMember.body.user).toEqual(expect.objectContaining({ email: api, delivery_email: email }));

    const added = (queue: EventQueue) =>
      queue.next((e) => e.type === 'realm_user' && e.op === 'add' && e.person.user_id === id);
    expect((await added(guestQueue)).person).toEqual(expect.objectContaining({ email: api, delivery_email: null }));
    expect((await added(memberQueue)).person).toEqual(expect.objectContaining({ email: api, delivery_email: email }));
  }, 90_000);
});
