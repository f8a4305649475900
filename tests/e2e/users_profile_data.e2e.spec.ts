import type { World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

/** PATCH /users/{user_id} with `profile_data`: administrators fill in (or clear) another user's custom profile fields. */
describe("administrators editing another user's custom profile fields", () => {
  let world: World;
  let badge: number;
  let team: number;
  beforeAll(async () => {
    world = await newWorld();
    const iago = world.as('iago');
    badge = (await iago.post('/realm/profile_fields', { name: 'Badge', field_type: 1, editable_by_user: false })).body
      .id as number;
    team = (
      await iago.post('/realm/profile_fields', {
        name: 'Team',
        field_type: 3,
        required: true,
        field_data: JSON.stringify({ a: { text: 'Actors', order: '1' }, s: { text: 'Stagehands', order: '2' } }),
      })
    ).body.id as number;
  });

  const profile = async (userId: number) =>
    (await world.as('othello').get(`/users/${userId}`, { include_custom_profile_fields: true })).body.user
      .profile_data as Record<string, unknown>;

  it('sets fields users may not edit themselves, and everyone hears of it', async () => {
    const hamlet = world.user('hamlet');
    const queue = await EventQueue.register(world.as('othello'), { event_types: ['realm_user'] });
    const response = await world.as('iago').patch(`/users/${hamlet.id}`, {
      profile_data: JSON.stringify([
        { id: badge, value: 'B-17' },
        { id: team, value: 'a' },
      ]),
    });
    expectSuccess(response, 'PATCH', '/users/{user_id}');
    expect(await profile(hamlet.id)).toEqual({ [badge]: { value: 'B-17' }, [team]: { value: 'a' } });
    const event = await queue.next((e) => e.type === 'realm_user' && e.person.custom_profile_field?.id === badge);
    expect(event.person).toEqual({ user_id: hamlet.id, custom_profile_field: { id: badge, value: 'B-17' } });
    expectError(
      await world.as('hamlet').patch('/users/me/profile_data', { data: JSON.stringify([{ id: badge, value: 'X' }]) }),
      400,
      'BAD_REQUEST',
      'You are not allowed to change this field. Contact an administrator to update it.',
    );

    // null or an empty value clears it, as in Zulip.
    expectSuccess(
      await world
        .as('iago')
        .patch(`/users/${hamlet.id}`, { profile_data: JSON.stringify([{ id: badge, value: null }]) }),
      'PATCH',
      '/users/{user_id}',
    );
    expect(await profile(hamlet.id)).toEqual({ [team]: { value: 'a' } });
  });

  it('refuses members and bad input, and changes nothing', async () => {
    const cordelia = world.user('cordelia');
    const data = JSON.stringify([{ id: badge, value: 'C-1' }]);
    expectError(
      await world.as('hamlet').patch(`/users/${cordelia.id}`, { profile_data: data }),
      400,
      'BAD_REQUEST',
      'Insufficient permission',
    );
    expectError(
      await world.as('iago').patch(`/users/${cordelia.id}`, {
        profile_data: JSON.stringify([{ id: team, value: 'x' }]),
      }),
      400,
      'BAD_REQUEST',
      "'x' is not a valid choice for 'Team'.",
    );
    expectError(
      await world.as('iago').patch(`/users/${cordelia.id}`, {
        profile_data: JSON.stringify([{ id: 999_999, value: 'x' }]),
      }),
      400,
      'BAD_REQUEST',
      'Field id 999999 not found.',
    );
    const bad = await world
      .as('iago')
      .patch(`/users/${cordelia.id}`, { profile_data: JSON.stringify([{ id: badge }]) });
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 400, code: 'BAD_REQUEST' });
    expect(await profile(cordelia.id)).toEqual({});
  });
});
