import type { ApiClient, World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

// Text PostgreSQL cannot store and integers beyond int64 are refused by the parameter layer of every service with
// a Zulip error naming the parameter (the places the security probe of issue 30 found answering 500).
const NUL = 'a\u0000b';
const BEYOND_INT64 = '99999999999999999999999';

describe('hostile text and integer parameters', () => {
  let world: World;
  let iago: ApiClient;
  let hamlet: ApiClient;
  beforeAll(async () => {
    world = await newWorld();
    iago = world.as('iago');
    hamlet = world.as('hamlet');
  });

  describe('full names (PATCH /settings, PATCH /users/{user_id})', () => {
    it('refuse a NUL or another control character as Zulip does', async () => {
      expectError(
        await hamlet.patch('/settings', { full_name: NUL }),
        400,
        'BAD_REQUEST',
        'Invalid characters in name!',
      );
      expectError(
        await hamlet.patch('/settings', { full_name: 'Ham\u0007let' }),
        400,
        'BAD_REQUEST',
        'Invalid characters in name!',
      );
      expectError(
        await iago.patch(`/users/${world.user('hamlet').id}`, { full_name: NUL }),
        400,
        'BAD_REQUEST',
        'Invalid characters in name!',
      );
      const me = await hamlet.get('/users/me');
      expect(me.body.full_name).toBe(world.user('hamlet').fullName);
    });
  });

  it('POST /users/me/status refuses a NUL in status_text', async () => {
    expectError(
      await hamlet.post('/users/me/status', { status_text: NUL }),
      400,
      'BAD_REQUEST',
      'status_text must not contain null bytes',
    );
  });

  describe('user groups', () => {
    it('POST /user_groups/create refuses a NUL in the name or description', async () => {
      expectError(
        await iago.post('/user_groups/create', { name: NUL, description: 'd', members: [] }),
        400,
        'BAD_REQUEST',
        'name must not contain null bytes',
      );
      expectError(
        await iago.post('/user_groups/create', { name: 'fine', description: NUL, members: [] }),
        400,
        'BAD_REQUEST',
        'description must not contain null bytes',
      );
    });

    it('PATCH /user_groups/{user_group_id} refuses a NUL in the name or description', async () => {
      const created = await iago.post('/user_groups/create', { name: 'nul-test', description: 'd', members: [] });
      expectSuccess(created, 'POST', '/user_groups/create');
      const id = created.body.group_id as number;
      for (const key of ['name', 'description']) {
        expectError(
          await iago.patch(`/user_groups/${id}`, { [key]: NUL }),
          400,
          'BAD_REQUEST',
          `${key} must not contain null bytes`,
        );
      }
    });
  });

  describe('invitations', () => {
    it('POST /invites/multiuse refuses a NUL in welcome_message_custom_text', async () => {
      expectError(
        await iago.post('/invites/multiuse', { welcome_message_custom_text: NUL }),
        400,
        'BAD_REQUEST',
        'welcome_message_custom_text must not contain null bytes',
      );
    });

    it.each([BEYOND_INT64, '1000000000000000'])('refuse invite_expires_in_minutes %s as too large', async (value) => {
      expectError(
        await iago.post('/invites/multiuse', { invite_expires_in_minutes: value }),
        400,
        'BAD_REQUEST',
        'invite_expires_in_minutes is too large',
      );
      expectError(
        await iago.post('/invites', {
          invitee_emails: 'someone@example.com',
          stream_ids: [],
          invite_expires_in_minutes: value,
        }),
        400,
        'BAD_REQUEST',
        'invite_expires_in_minutes is too large',
      );
    });
  });

  it('POST /users/me/android_gcm_reg_id refuses a NUL in the legacy token', async () => {
    expectError(
      await hamlet.post('/users/me/android_gcm_reg_id', { token: NUL }),
      400,
      'BAD_REQUEST',
      'token must not contain null bytes',
    );
  });
});
