import { randomBytes } from 'node:crypto';
import type { World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { createGroup, eventually, membersOf, systemGroups } from './support/groups';
import {
  channelIds,
  createLink,
  logIn,
  setLinkExpiry,
  setRealmPermissions,
  STRONG_PASSWORD,
  submitSignUp,
} from './support/invitations';
import { openPage } from './support/pages';
import { newWorld, system } from './support/system';

jest.setTimeout(60_000);

const MINUTE = 60;
const freshEmail = () => `new-${randomBytes(4).toString('hex')}@example.com`;

interface InviteEntry {
  id: number;
  invited_by_user_id: number;
  invited: number;
  expiry_date: number | null;
  invited_as: number;
  link_url: string;
  is_multiuse: boolean;
}

async function invitesSeenBy(world: World, name: Parameters<World['as']>[0]): Promise<InviteEntry[]> {
  const response = await world.as(name).get('/invites');
  expectSuccess(response, 'GET', '/invites');
  return response.body.invites as InviteEntry[];
}

describe('POST /invites/multiuse', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('returns a link on the organization with the defaults: members, 10 days, listed by GET /invites', async () => {
    const response = await world.as('iago').post('/invites/multiuse');
    expectSuccess(response, 'POST', '/invites/multiuse');
    const link = response.body.invite_link as string;
    expect(link).toMatch(new RegExp(`^${world.realm.url}/join/[a-z0-9]{24}/$`));
    const entry = (await invitesSeenBy(world, 'iago')).find((i) => i.link_url === link);
    expect(entry).toMatchObject({
      invited_by_user_id: world.user('iago').id,
      invited_as: 400,
      is_multiuse: true,
    });
    expect(entry!.expiry_date! - entry!.invited).toBe(14400 * MINUTE);
    expect(Math.abs(entry!.invited - Date.now() / 1000)).toBeLessThan(120);
  });

  it('takes invite_expires_in_minutes, null meaning never', async () => {
    const never = await createLink(world.as('iago'), { invite_expires_in_minutes: null });
    const soon = await createLink(world.as('iago'), { invite_expires_in_minutes: 30 });
    const listed = await invitesSeenBy(world, 'iago');
    expect(listed.find((i) => i.id === never.id)!.expiry_date).toBeNull();
    const entry = listed.find((i) => i.id === soon.id)!;
    expect(entry.expiry_date! - entry.invited).toBe(30 * MINUTE);
  });

  it('refuses an expiry that is not a positive whole number of minutes', async () => {
    expectError(
      await world.as('iago').post('/invites/multiuse', { invite_expires_in_minutes: 0 }),
      400,
      'BAD_REQUEST',
      'invite_expires_in_minutes is too small',
    );
    expectError(
      await world.as('iago').post('/invites/multiuse', { invite_expires_in_minutes: '"soon"' }),
      400,
      'BAD_REQUEST',
      'invite_expires_in_minutes is not an integer',
    );
  });

  it('accepts each role as invite_as and refuses anything else', async () => {
    for (const role of [100, 200, 300, 400, 600]) {
      const { id } = await createLink(world.as('desdemona'), { invite_as: role });
      expect((await invitesSeenBy(world, 'desdemona')).find((i) => i.id === id)!.invited_as).toBe(role);
    }
    for (const bad of [0, 500, 700, '"member"']) {
      expectError(
        await world.as('desdemona').post('/invites/multiuse', { invite_as: bad }),
        400,
        'BAD_REQUEST',
        'Invalid invite_as',
      );
    }
  });

  it('never invites above the caller’s own role', async () => {
    expectError(
      await world.as('iago').post('/invites/multiuse', { invite_as: 100 }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectSuccess(await world.as('iago').post('/invites/multiuse', { invite_as: 200 }), 'POST', '/invites/multiuse');
  });

  it('refuses guests and bots', async () => {
    expectError(
      await world.as('polonius').post('/invites/multiuse'),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
    expectError(
      await world.as('default-bot').post('/invites/multiuse'),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
  });

  it('lets only administrators invite by default (create_multiuse_invite_group)', async () => {
    for (const name of ['hamlet', 'shiva'] as const) {
      expectError(await world.as(name).post('/invites/multiuse'), 400, 'BAD_REQUEST', 'Insufficient permission');
    }
  });

  it('names the first channel that does not exist or that the caller cannot see', async () => {
    const channels = await channelIds(world.as('iago'));
    expectError(
      await world.as('iago').post('/invites/multiuse', { stream_ids: [channels.Denmark, 987654321] }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID 987654321. No invites were sent.',
    );
    const secret = await world.as('desdemona').post('/users/me/subscriptions', {
      subscriptions: [{ name: 'Secret plans' }],
      invite_only: true,
    });
    expect(secret.status).toBe(200);
    const secretId = (await channelIds(world.as('desdemona')))['Secret plans' as 'Denmark'];
    expectError(
      await world.as('iago').post('/invites/multiuse', { stream_ids: [secretId] }),
      400,
      'BAD_REQUEST',
      `Invalid channel ID ${secretId}. No invites were sent.`,
    );
    expectSuccess(
      await world.as('desdemona').post('/invites/multiuse', { stream_ids: [secretId, channels.Denmark] }),
      'POST',
      '/invites/multiuse',
    );
  });

  it('refuses groups that do not exist, system groups and deactivated groups', async () => {
    expectError(
      await world.as('iago').post('/invites/multiuse', { group_ids: [987654321] }),
      400,
      'BAD_REQUEST',
      'Invalid user group',
    );
    const system = await systemGroups(world);
    expectError(
      await world.as('iago').post('/invites/multiuse', { group_ids: [system['role:members']!] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    const gone = await createGroup(world.as('iago'), `gone-${randomBytes(3).toString('hex')}`);
    expect((await world.as('iago').post(`/user_groups/${gone}/deactivate`)).status).toBe(200);
    expectError(
      await world.as('iago').post('/invites/multiuse', { group_ids: [gone] }),
      400,
      'BAD_REQUEST',
      'User group is deactivated.',
    );
  });

  it('limits welcome_message_custom_text to 8000 code points', async () => {
    // 8000 emoji are 16000 UTF-16 units but 8000 code points.
    expectSuccess(
      await world.as('iago').post('/invites/multiuse', { welcome_message_custom_text: '🎉'.repeat(8000) }),
      'POST',
      '/invites/multiuse',
    );
    expectError(
      await world.as('iago').post('/invites/multiuse', { welcome_message_custom_text: 'x'.repeat(8001) }),
      400,
      'BAD_REQUEST',
      'welcome_message_custom_text is too long (limit: 8000 characters)',
    );
  });

  it('lists parameters it does not know in ignored_parameters_unsupported', async () => {
    const response = await world.as('iago').post('/invites/multiuse', { notify_referrer_on_join: true });
    expectSuccess(response, 'POST', '/invites/multiuse');
    expect(response.body.ignored_parameters_unsupported).toEqual(['notify_referrer_on_join']);
  });
});

describe('POST /invites/multiuse when members may invite', () => {
  let world: World;
  let channels: Awaited<ReturnType<typeof channelIds>>;
  beforeAll(async () => {
    world = await newWorld();
    channels = await channelIds(world.as('iago'));
    const groups = await systemGroups(world);
    await setRealmPermissions(world, {
      create_multiuse_invite_group: groups['role:members']!,
      can_add_subscribers_group: 'role:administrators',
    });
  });

  it('lets a member invite at their own role or a more restricted one', async () => {
    for (const role of [400, 600]) {
      expectSuccess(
        await world.as('hamlet').post('/invites/multiuse', { invite_as: role }),
        'POST',
        '/invites/multiuse',
      );
    }
    for (const role of [100, 200, 300]) {
      expectError(
        await world.as('hamlet').post('/invites/multiuse', { invite_as: role }),
        400,
        'BAD_REQUEST',
        'Insufficient permission',
      );
    }
    expectSuccess(await world.as('shiva').post('/invites/multiuse', { invite_as: 300 }), 'POST', '/invites/multiuse');
    expectError(
      await world.as('shiva').post('/invites/multiuse', { invite_as: 200 }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
  });

  it('keeps guests out whatever the setting says', async () => {
    expectError(
      await world.as('polonius').post('/invites/multiuse'),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
  });

  it('refuses channels to a member who may not subscribe others, but allows the defaults', async () => {
    expectError(
      await world.as('hamlet').post('/invites/multiuse', { stream_ids: [channels.Denmark] }),
      400,
      'BAD_REQUEST',
      'You do not have permission to subscribe other users to channels.',
    );
    // An invalid channel is reported before the missing permission, as Zulip checks them.
    expectError(
      await world.as('hamlet').post('/invites/multiuse', { stream_ids: [987654321] }),
      400,
      'BAD_REQUEST',
      'Invalid channel ID 987654321. No invites were sent.',
    );
    expectSuccess(
      await world.as('hamlet').post('/invites/multiuse', { stream_ids: [], include_realm_default_subscriptions: true }),
      'POST',
      '/invites/multiuse',
    );
    expectSuccess(
      await world.as('iago').post('/invites/multiuse', { stream_ids: [channels.Denmark] }),
      'POST',
      '/invites/multiuse',
    );
  });

  it('needs permission to add members to each group', async () => {
    const othellos = await createGroup(world.as('othello'), `othello-${randomBytes(3).toString('hex')}`, {
      can_add_members_group: JSON.stringify({ direct_members: [world.user('othello').id], direct_subgroups: [] }),
      can_manage_group: JSON.stringify({ direct_members: [world.user('othello').id], direct_subgroups: [] }),
    });
    expectError(
      await world.as('hamlet').post('/invites/multiuse', { group_ids: [othellos] }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectSuccess(
      await world.as('othello').post('/invites/multiuse', { group_ids: [othellos] }),
      'POST',
      '/invites/multiuse',
    );
    // Administrators manage every group.
    expectSuccess(
      await world.as('iago').post('/invites/multiuse', { group_ids: [othellos] }),
      'POST',
      '/invites/multiuse',
    );
  });

  it('stops when the organization takes the permission back', async () => {
    const other = await newWorld();
    const groups = await systemGroups(other);
    await setRealmPermissions(other, { create_multiuse_invite_group: groups['role:nobody']! });
    expectError(await other.as('iago').post('/invites/multiuse'), 400, 'BAD_REQUEST', 'Insufficient permission');
    expectError(await other.as('desdemona').post('/invites/multiuse'), 400, 'BAD_REQUEST', 'Insufficient permission');
  });
});

describe('GET /invites', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
    const groups = await systemGroups(world);
    await setRealmPermissions(world, { create_multiuse_invite_group: groups['role:members']! });
  });

  it('shows administrators every active link and others their own', async () => {
    const byIago = await createLink(world.as('iago'));
    const byHamlet = await createLink(world.as('hamlet'));
    const byOthello = await createLink(world.as('othello'));
    const ownerLink = await createLink(world.as('desdemona'), { invite_as: 100 });

    const iagoSees = (await invitesSeenBy(world, 'iago')).map((i) => i.id);
    expect(iagoSees).toEqual(expect.arrayContaining([byIago.id, byHamlet.id, byOthello.id]));
    // Links that make owners are for owners' eyes.
    expect(iagoSees).not.toContain(ownerLink.id);
    expect((await invitesSeenBy(world, 'desdemona')).map((i) => i.id)).toEqual(
      expect.arrayContaining([byIago.id, byHamlet.id, byOthello.id, ownerLink.id]),
    );
    expect((await invitesSeenBy(world, 'hamlet')).map((i) => i.id)).toEqual([byHamlet.id]);
  });

  it('leaves out revoked and expired links', async () => {
    const revoked = await createLink(world.as('iago'));
    const expired = await createLink(world.as('iago'));
    const kept = await createLink(world.as('iago'));
    expectSuccess(
      await world.as('iago').delete(`/invites/multiuse/${revoked.id}`),
      'DELETE',
      '/invites/multiuse/{invite_id}',
    );
    await setLinkExpiry(expired.id, -1);
    const ids = (await invitesSeenBy(world, 'iago')).map((i) => i.id);
    expect(ids).toContain(kept.id);
    expect(ids).not.toContain(revoked.id);
    expect(ids).not.toContain(expired.id);
  });

  it('shows nothing of another organization', async () => {
    const other = await newWorld();
    const theirs = await createLink(other.as('iago'));
    expect((await invitesSeenBy(world, 'iago')).map((i) => i.id)).not.toContain(theirs.id);
  });

  it('refuses guests', async () => {
    expectError(await world.as('polonius').get('/invites'), 400, 'BAD_REQUEST', 'Not allowed for guest users');
  });
});

describe('DELETE /invites/multiuse/{invite_id}', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
    const groups = await systemGroups(world);
    await setRealmPermissions(world, { create_multiuse_invite_group: groups['role:members']! });
  });

  it('revokes a link once', async () => {
    const { id } = await createLink(world.as('iago'));
    expectSuccess(await world.as('iago').delete(`/invites/multiuse/${id}`), 'DELETE', '/invites/multiuse/{invite_id}');
    expectError(
      await world.as('iago').delete(`/invites/multiuse/${id}`),
      400,
      'BAD_REQUEST',
      'Invitation has already been revoked',
    );
  });

  it('says No such invitation for unknown ids and other organizations’ links', async () => {
    expectError(await world.as('iago').delete('/invites/multiuse/987654321'), 400, 'BAD_REQUEST', 'No such invitation');
    const other = await newWorld();
    const theirs = await createLink(other.as('iago'));
    expectError(
      await world.as('iago').delete(`/invites/multiuse/${theirs.id}`),
      400,
      'BAD_REQUEST',
      'No such invitation',
    );
  });

  it('lets members revoke only their own links, administrators any but owners’ links', async () => {
    const byIago = await createLink(world.as('iago'));
    const byHamlet = await createLink(world.as('hamlet'));
    const byOwner = await createLink(world.as('desdemona'), { invite_as: 100 });
    expectError(
      await world.as('othello').delete(`/invites/multiuse/${byIago.id}`),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectSuccess(
      await world.as('hamlet').delete(`/invites/multiuse/${byHamlet.id}`),
      'DELETE',
      '/invites/multiuse/{invite_id}',
    );
    expectError(
      await world.as('iago').delete(`/invites/multiuse/${byOwner.id}`),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    expectSuccess(
      await world.as('desdemona').delete(`/invites/multiuse/${byOwner.id}`),
      'DELETE',
      '/invites/multiuse/{invite_id}',
    );
    expectSuccess(
      await world.as('desdemona').delete(`/invites/multiuse/${byIago.id}`),
      'DELETE',
      '/invites/multiuse/{invite_id}',
    );
  });

  it('refuses guests', async () => {
    const { id } = await createLink(world.as('iago'));
    expectError(
      await world.as('polonius').delete(`/invites/multiuse/${id}`),
      400,
      'BAD_REQUEST',
      'Not allowed for guest users',
    );
  });
});

describe('the invitation link', () => {
  let world: World;
  let channels: Awaited<ReturnType<typeof channelIds>>;
  beforeAll(async () => {
    world = await newWorld();
    channels = await channelIds(world.as('iago'));
  });

  it('lets a person join: page, form, login, channels, groups and the welcome message', async () => {
    const group = await createGroup(world.as('iago'), `newcomers-${randomBytes(3).toString('hex')}`);
    const { link } = await createLink(world.as('iago'), {
      invite_as: 300,
      stream_ids: [channels.Denmark, channels.Rome],
      group_ids: [group],
      welcome_message_custom_text: 'Welcome to **Denmark**, friend!',
    });

    const page = await openPage(system().gatewayUrl, link);
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('<form method="post"');
    for (const field of ['full_name', 'email', 'password']) expect(page.text).toContain(`name="${field}"`);

    const email = freshEmail();
    const done = await submitSignUp(link, { full_name: 'Ophelia', email, password: STRONG_PASSWORD });
    expect(done.status).toBe(200);
    expect(done.text).toContain('has been created');
    expect(done.text).toContain(email);

    const ophelia = await logIn(world, email, STRONG_PASSWORD);
    const me = await ophelia.get('/users/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ full_name: 'Ophelia', role: 300, is_bot: false });
    const userId = me.body.user_id as number;

    const subscriptions = await ophelia.get('/users/me/subscriptions');
    expect(subscriptions.status).toBe(200);
    expect((subscriptions.body.subscriptions as { name: string }[]).map((s) => s.name).sort()).toEqual([
      'Denmark',
      'Rome',
    ]);

    await eventually(async () => expect(await membersOf(world, group)).toContain(userId));
    const groups = await ophelia.get('/user_groups');
    const mine = (groups.body.user_groups as { id: number; members: number[] }[]).find((g) => g.id === group);
    expect(mine!.members).toContain(userId);

    const messages = await ophelia.get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'dm', operand: [world.user('iago').id] }],
    });
    expect(messages.status).toBe(200);
    const welcome = (messages.body.messages as { sender_id: number; type: string; content: string }[]).filter(
      (m) => m.sender_id === world.user('iago').id,
    );
    expect(welcome).toHaveLength(1);
    expect(welcome[0]!.type).toBe('private');
    expect(welcome[0]!.content).toBe('<p>Welcome to <strong>Denmark</strong>, friend!</p>');
  });

  it('sends the default welcome text for null and none for an empty text; non-administrators cannot choose it', async () => {
    const groups = await systemGroups(world);
    await setRealmPermissions(world, { create_multiuse_invite_group: groups['role:members']! });
    const byHamlet = await createLink(world.as('hamlet'), { welcome_message_custom_text: 'Ignored text' });
    const silent = await createLink(world.as('iago'), { welcome_message_custom_text: '' });

    const welcomed = freshEmail();
    expect(
      (await submitSignUp(byHamlet.link, { full_name: 'Laertes', email: welcomed, password: STRONG_PASSWORD })).status,
    ).toBe(200);
    const laertes = await logIn(world, welcomed, STRONG_PASSWORD);
    const fromHamlet = await laertes.get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: 'dm', operand: [world.user('hamlet').id] }],
    });
    const texts = (fromHamlet.body.messages as { content: string }[]).map((m) => m.content);
    expect(texts).toHaveLength(1);
    expect(texts[0]).not.toContain('Ignored text');
    expect(texts[0]).toContain('Welcome');

    const quiet = freshEmail();
    expect(
      (await submitSignUp(silent.link, { full_name: 'Horatio', email: quiet, password: STRONG_PASSWORD })).status,
    ).toBe(200);
    const horatio = await logIn(world, quiet, STRONG_PASSWORD);
    const none = await horatio.get('/messages', { anchor: 'newest', num_before: 10, num_after: 0, narrow: [] });
    expect(none.status).toBe(200);
    expect((none.body.messages as { type: string }[]).filter((m) => m.type === 'private')).toEqual([]);
  });

  it('makes accounts with the invited role (guest)', async () => {
    const { link } = await createLink(world.as('iago'), { invite_as: 600, stream_ids: [channels.Verona] });
    const email = freshEmail();
    expect((await submitSignUp(link, { full_name: 'Yorick', email, password: STRONG_PASSWORD })).status).toBe(200);
    const yorick = await logIn(world, email, STRONG_PASSWORD);
    expect((await yorick.get('/users/me')).body.role).toBe(600);
    const subs = await yorick.get('/users/me/subscriptions');
    expect((subs.body.subscriptions as { name: string }[]).map((s) => s.name)).toEqual(['Verona']);
  });

  it('says so when the link is revoked, expired or unknown, and creates nothing', async () => {
    const revoked = await createLink(world.as('iago'));
    expect((await world.as('iago').delete(`/invites/multiuse/${revoked.id}`)).status).toBe(200);
    const expired = await createLink(world.as('iago'));
    await setLinkExpiry(expired.id, -1);

    for (const [link, text] of [
      [revoked.link, 'has been revoked'],
      [expired.link, 'has expired'],
      [`${world.realm.url}/join/${'a'.repeat(24)}/`, 'could not find this invitation link'],
      [`${world.realm.url}/join/not-a-key/`, 'could not find this invitation link'],
    ] as const) {
      const page = await openPage(system().gatewayUrl, link);
      expect(page.status).toBe(404);
      expect(page.text).toContain(text);
      expect(page.text).not.toContain('<form');
      const email = freshEmail();
      const posted = await submitSignUp(link, { full_name: 'Nobody', email, password: STRONG_PASSWORD });
      expect(posted.status).toBe(404);
      expect(posted.text).toContain(text);
      const login = await world.anonymous().post('/fetch_api_key', { username: email, password: STRONG_PASSWORD });
      expect(login.status).toBe(401);
    }
  });

  it('stops working when its creator is deactivated, as Zulip revokes their invitations', async () => {
    const groups = await systemGroups(world);
    await setRealmPermissions(world, { create_multiuse_invite_group: groups['role:members']! });
    const byCordelia = await createLink(world.as('cordelia'));
    const byIago = await createLink(world.as('iago'));
    expectSuccess(await world.as('iago').delete(`/users/${world.user('cordelia').id}`), 'DELETE', '/users/{user_id}');
    await eventually(async () => {
      const page = await openPage(system().gatewayUrl, byCordelia.link);
      expect(page.status).toBe(404);
      expect(page.text).toContain('has expired');
    });
    const listed = (await invitesSeenBy(world, 'iago')).map((i) => i.id);
    expect(listed).not.toContain(byCordelia.id);
    expect(listed).toContain(byIago.id);
    expect((await openPage(system().gatewayUrl, byIago.link)).status).toBe(200);
  });

  it('shows the problem above the form when the email is in use or the input is refused', async () => {
    const { link } = await createLink(world.as('iago'));
    const cases: [Record<string, string>, string][] = [
      [
        { full_name: 'Hamlet Again', email: world.user('hamlet').email, password: STRONG_PASSWORD },
        'Email is already in use.',
      ],
      [{ full_name: 'Weak', email: freshEmail(), password: 'abc' }, 'The password is too weak.'],
      [{ full_name: 'X', email: freshEmail(), password: STRONG_PASSWORD }, 'Name too short!'],
      [{ full_name: 'Bad', email: 'not-an-email', password: STRONG_PASSWORD }, 'Enter a valid email address.'],
      [{ full_name: '', email: freshEmail(), password: STRONG_PASSWORD }, 'Please enter your name.'],
    ];
    for (const [form, message] of cases) {
      const page = await submitSignUp(link, form as { full_name: string; email: string; password: string });
      expect(page.status).toBe(400);
      expect(page.text).toContain(message);
      // The form is shown again with what was typed, but not the password.
      expect(page.text).toContain('<form method="post"');
      if (form.email) expect(page.text).toContain(`value="${form.email}"`);
      expect(page.text).not.toContain(`value="${form.password}"`);
    }
    // A refused attempt does not hold the address: fixing the password works.
    const email = freshEmail();
    expect((await submitSignUp(link, { full_name: 'Weak', email, password: 'abc' })).status).toBe(400);
    expect((await submitSignUp(link, { full_name: 'Weak', email, password: STRONG_PASSWORD })).status).toBe(200);
  });

  it('creates one account when the form is submitted twice', async () => {
    const { link } = await createLink(world.as('iago'), { stream_ids: [channels.Scotland] });
    const email = freshEmail();
    const form = { full_name: 'Twice', email, password: STRONG_PASSWORD };
    const pages = await Promise.all([submitSignUp(link, form), submitSignUp(link, form)]);
    expect(pages.map((p) => p.status).sort()).toEqual([200, 409]);
    const again = await submitSignUp(link, { ...form, email: email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.text).toContain('has already been created');

    const twice = await logIn(world, email, STRONG_PASSWORD);
    const users = await world.as('iago').get('/users');
    expect((users.body.members as { full_name: string }[]).filter((u) => u.full_name === 'Twice')).toHaveLength(1);
    const subs = await twice.get('/users/me/subscriptions');
    expect((subs.body.subscriptions as { name: string }[]).map((s) => s.name)).toEqual(['Scotland']);
  });
});
