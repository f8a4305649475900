import type { ApiClient, World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { newWorld, system } from './support/system';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/** Zulip's API description has no icon and logo operations (its web app uses them). */
const UNDESCRIBED = { undocumented: true };

const upload = (client: ApiClient, path: string, files: Buffer[], params: Record<string, unknown> = {}) =>
  client.post(path, params, {
    files: files.map((data, i) => ({ field: `file${i}`, filename: 'image.png', contentType: 'image/png', data })),
  });

const realmState = async (client: ApiClient) => (await client.post('/register', { fetch_event_types: ['realm'] })).body;

describe("the organization's icon and logo (POST and DELETE /realm/icon, /realm/logo)", () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('stores an uploaded icon, serves it from our own address, shows it in /register and tells everyone', async () => {
    const watcher = await EventQueue.register(world.as('hamlet'), { event_types: ['realm'] });
    const response = await upload(world.as('iago'), '/realm/icon', [PNG]);
    expectSuccess(response, 'POST', '/realm/icon', UNDESCRIBED);
    const url = response.body.icon_url as string;
    expect(url).toMatch(new RegExp(`^/user_avatars/${world.realm.realm_id}/\\d+-[0-9a-f]{16}\\.png\\?version=2$`));
    const image = await fetch(new URL(url, system().gatewayUrl));
    expect({ status: image.status, type: image.headers.get('content-type') }).toEqual({
      status: 200,
      type: 'image/png',
    });
    const state = await realmState(world.as('hamlet'));
    expect({ url: state.realm_icon_url, source: state.realm_icon_source }).toEqual({ url, source: 'U' });
    const event = await watcher.next((e) => e.type === 'realm' && e.property === 'icon');
    expect(event).toEqual({
      id: event.id,
      type: 'realm',
      op: 'update_dict',
      property: 'icon',
      data: { icon_url: url, icon_source: 'U' },
    });

    const removed = await world.as('iago').delete('/realm/icon');
    expectSuccess(removed, 'DELETE', '/realm/icon', UNDESCRIBED);
    expect(removed.body.icon_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon$/);
    expect((await fetch(new URL(url, system().gatewayUrl))).status).toBe(404);
    const after = await realmState(world.as('hamlet'));
    expect({ url: after.realm_icon_url, source: after.realm_icon_source }).toEqual({
      url: removed.body.icon_url,
      source: 'G',
    });
    const back = await watcher.next((e) => e.type === 'realm' && e.property === 'icon' && e.data.icon_source === 'G');
    expect(back.data).toEqual({ icon_url: removed.body.icon_url, icon_source: 'G' });
  });

  it('stores the day and night logos apart, and goes back to the default logo', async () => {
    const watcher = await EventQueue.register(world.as('cordelia'), { event_types: ['realm'] });
    expectSuccess(
      await upload(world.as('iago'), '/realm/logo', [PNG], { night: true }),
      'POST',
      '/realm/logo',
      UNDESCRIBED,
    );
    const state = await realmState(world.as('cordelia'));
    expect(state.realm_night_logo_source).toBe('U');
    expect(state.realm_night_logo_url).toMatch(
      new RegExp(`^/user_avatars/${world.realm.realm_id}/.*\\.png\\?version=2$`),
    );
    expect(state.realm_logo_source).toBe('D');
    expect(state.realm_logo_url).toMatch(/\/static\/images\/logo\/zulip-org-logo\.svg$/);
    const event = await watcher.next((e) => e.type === 'realm' && e.property === 'night_logo');
    expect(event.data).toEqual({ night_logo_url: state.realm_night_logo_url, night_logo_source: 'U' });

    expectSuccess(await world.as('iago').delete('/realm/logo', { night: true }), 'DELETE', '/realm/logo', UNDESCRIBED);
    const after = await realmState(world.as('cordelia'));
    expect({ url: after.realm_night_logo_url, source: after.realm_night_logo_source }).toEqual({
      url: state.realm_logo_url,
      source: 'D',
    });
    expectSuccess(
      await upload(world.as('iago'), '/realm/logo', [PNG], { night: false }),
      'POST',
      '/realm/logo',
      UNDESCRIBED,
    );
    const day = await watcher.next((e) => e.type === 'realm' && e.property === 'logo');
    expect(day.data).toMatchObject({ logo_source: 'U' });
  });

  it("refuses members, wrong files and a missing 'night', with Zulip's errors", async () => {
    const admin = 'Must be an organization administrator';
    expectError(await upload(world.as('hamlet'), '/realm/icon', [PNG]), 400, 'UNAUTHORIZED_PRINCIPAL', admin);
    expectError(await world.as('hamlet').delete('/realm/icon'), 400, 'UNAUTHORIZED_PRINCIPAL', admin);
    expectError(
      await upload(world.as('hamlet'), '/realm/logo', [PNG], { night: false }),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      admin,
    );
    const iago = world.as('iago');
    expectError(await upload(iago, '/realm/icon', []), 400, 'BAD_REQUEST', 'You must upload exactly one icon.');
    expectError(
      await upload(iago, '/realm/logo', [PNG, PNG], { night: false }),
      400,
      'BAD_REQUEST',
      'You must upload exactly one logo.',
    );
    expectError(
      await upload(iago, '/realm/icon', [Buffer.from('text')]),
      400,
      'BAD_IMAGE',
      'Could not decode image; did you upload an image file?',
    );
    expectError(
      await upload(iago, '/realm/icon', [Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)])]),
      400,
      'BAD_REQUEST',
      'Uploaded file is larger than the allowed limit of 5 MiB',
    );
    expectError(await upload(iago, '/realm/logo', [PNG]), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'night' argument", {
      var_name: 'night',
    });
    expect((await realmState(world.as('hamlet'))).realm_icon_source).toBe('G');
  });
});
