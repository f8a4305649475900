import type { ApiClient, World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { pngOf, pngSize as pngSizeOf } from './support/images';
import { eventually } from './support/groups';
import { newWorld, system } from './support/system';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A served PNG's width and height, read from its header. */
function pngSize(data: Buffer): { width: number; height: number } {
  const size = pngSizeOf(data);
  expect(size).not.toBeNull();
  return size!;
}

const upload = (client: ApiClient, files: { data: Buffer; name?: string }[]) =>
  client.post(
    '/users/me/avatar',
    {},
    {
      files: files.map((f, i) => ({
        field: `file${i}`,
        filename: f.name ?? 'me.png',
        contentType: 'image/png',
        data: f.data,
      })),
    },
  );

/** Zulip's API description has no avatar operations (its web app uses them). */
const UNDESCRIBED = { undocumented: true };

const fetchImage = (url: string) => fetch(new URL(url, system().gatewayUrl));

describe('avatar upload (POST and DELETE /users/me/avatar)', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('stores the picture, serves it from our own address, shows it everywhere and tells everyone', async () => {
    const hamlet = world.user('hamlet');
    const watcher = await EventQueue.register(world.as('cordelia'), { event_types: ['realm_user'] });
    const gravatarWatcher = await EventQueue.register(world.as('othello'), {
      event_types: ['realm_user'],
      client_gravatar: true,
    });
    const before = (await world.as('hamlet').get('/users/me')).body;

    const response = await upload(world.as('hamlet'), [{ data: pngOf(640, 480) }]);
    expectSuccess(response, 'POST', '/users/me/avatar', UNDESCRIBED);
    const url = response.body.avatar_url as string;
    const medium = url.replace('.png?', '-medium.png?');
    expect(url).toMatch(
      new RegExp(
        `^/user_avatars/${world.realm.realm_id}/${hamlet.id}-[0-9a-f]{16}\\.png\\?version=${before.avatar_version + 1}$`,
      ),
    );

    const image = await fetchImage(url);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    // Zulip's resize_avatar: a square 100×100 picture, and a 500×500 medium one, cropped to the centre.
    expect(pngSize(Buffer.from(await image.arrayBuffer()))).toEqual({ width: 100, height: 100 });
    const mediumImage = await fetchImage(medium);
    expect(mediumImage.status).toBe(200);
    expect(pngSize(Buffer.from(await mediumImage.arrayBuffer()))).toEqual({ width: 500, height: 500 });

    const me = (await world.as('hamlet').get('/users/me')).body;
    expect({ avatar_url: me.avatar_url, avatar_version: me.avatar_version }).toEqual({
      avatar_url: url,
      avatar_version: before.avatar_version + 1,
    });
    // Sent even to clients that compute Gravatar URLs themselves (client_gravatar, GET /users' default).
    const listed = (await world.as('cordelia').get('/users')).body.members.find((u: any) => u.user_id === hamlet.id);
    expect(listed.avatar_url).toBe(url);
    const single = (await world.as('cordelia').get(`/users/${hamlet.id}`)).body.user;
    expect(single.avatar_url).toBe(url);
    const state = (await world.as('cordelia').post('/register', { fetch_event_types: ['realm_user'] })).body;
    expect(state.realm_users.find((u: any) => u.user_id === hamlet.id).avatar_url).toBe(url);
    const own = (await world.as('hamlet').post('/register', { fetch_event_types: ['realm_user'] })).body;
    expect({ source: own.avatar_source, url: own.avatar_url, medium: own.avatar_url_medium }).toEqual({
      source: 'U',
      url,
      medium,
    });

    const person = { user_id: hamlet.id, avatar_source: 'U', avatar_url: url, avatar_url_medium: medium };
    const event = await watcher.next((e) => e.type === 'realm_user' && e.person.user_id === hamlet.id);
    expect(event).toEqual({
      id: event.id,
      type: 'realm_user',
      op: 'update',
      person: { ...person, avatar_version: before.avatar_version + 1 },
    });
    const seen = await gravatarWatcher.next((e) => e.type === 'realm_user' && e.person.user_id === hamlet.id);
    expect(seen.person).toEqual({ ...person, avatar_version: before.avatar_version + 1 });

    // A second picture (any of Zulip's formats, stored as PNG) replaces the first, whose files are no longer served.
    const second = await upload(world.as('hamlet'), [{ data: GIF, name: 'me.gif' }]);
    expectSuccess(second, 'POST', '/users/me/avatar', UNDESCRIBED);
    expect(second.body.avatar_url).toMatch(/\.png\?version=\d+$/);
    const secondImage = await fetchImage(second.body.avatar_url);
    expect(secondImage.headers.get('content-type')).toBe('image/png');
    expect(pngSize(Buffer.from(await secondImage.arrayBuffer()))).toEqual({ width: 100, height: 100 });
    expect((await fetchImage(url)).status).toBe(404);
    expect((await fetchImage(medium)).status).toBe(404);
  });

  it("shows the sender's uploaded avatar on messages (GET /messages and message events), a default one as before", async () => {
    const own = await newWorld();
    const prospero = own.user('prospero');
    const othello = own.user('othello');
    const uploaded = await upload(own.as('prospero'), [{ data: pngOf(120, 80) }]);
    expectSuccess(uploaded, 'POST', '/users/me/avatar', UNDESCRIBED);
    const url = uploaded.body.avatar_url as string;
    const send = async (sender: 'prospero' | 'othello', content: string) => {
      const sent = await own.as(sender).post('/messages', { type: 'stream', to: 'Verona', topic: 'faces', content });
      expectSuccess(sent, 'POST', '/messages');
      return sent.body.id as number;
    };
    const avatarOf = async (id: number, clientGravatar: boolean) => {
      const page = await own.as('cordelia').get('/messages', {
        anchor: id,
        num_before: 0,
        num_after: 0,
        client_gravatar: clientGravatar,
      });
      return (page.body.messages as { id: number; avatar_url: string | null }[]).find((m) => m.id === id)!.avatar_url;
    };
    // The messaging service hears of the new picture by its event: older and newer messages show it.
    const earlier = await send('othello', 'mine is the default picture');
    await eventually(async () => expect(await avatarOf(await send('prospero', 'look at me'), true)).toBe(url));
    expect(await avatarOf(earlier, true)).toBeNull();
    expect(await avatarOf(earlier, false)).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\//);

    const queue = await EventQueue.register(own.as('cordelia'), { event_types: ['message'], client_gravatar: true });
    const full = await EventQueue.register(own.as('hamlet'), { event_types: ['message'], client_gravatar: false });
    const id = await send('prospero', 'and again');
    const other = await send('othello', 'me too');
    const heard = await queue.next((e) => e.type === 'message' && e.message.id === id);
    expect(heard.message).toMatchObject({ sender_id: prospero.id, avatar_url: url });
    expect((await queue.next((e) => e.type === 'message' && e.message.id === other)).message).toMatchObject({
      sender_id: othello.id,
      avatar_url: null,
    });
    expect((await full.next((e) => e.type === 'message' && e.message.id === id)).message.avatar_url).toBe(url);
  });

  it('goes back to the default picture on DELETE, and tells everyone', async () => {
    const iago = world.user('iago');
    expectSuccess(await upload(world.as('iago'), [{ data: PNG }]), 'POST', '/users/me/avatar', UNDESCRIBED);
    const uploaded = (await world.as('iago').get('/users/me')).body;
    const watcher = await EventQueue.register(world.as('cordelia'), { event_types: ['realm_user'] });
    const gravatarWatcher = await EventQueue.register(world.as('othello'), {
      event_types: ['realm_user'],
      client_gravatar: true,
    });

    const response = await world.as('iago').delete('/users/me/avatar');
    expectSuccess(response, 'DELETE', '/users/me/avatar', UNDESCRIBED);
    expect(response.body.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon/);
    const me = (await world.as('iago').get('/users/me')).body;
    expect({ avatar_url: me.avatar_url, avatar_version: me.avatar_version }).toEqual({
      avatar_url: response.body.avatar_url,
      avatar_version: uploaded.avatar_version + 1,
    });
    expect((await fetchImage(uploaded.avatar_url)).status).toBe(404);
    const listed = (await world.as('cordelia').get('/users')).body.members.find((u: any) => u.user_id === iago.id);
    expect(listed.avatar_url).toBeNull();

    // The upload's own event can still reach queues registered just after it: this change's is the next version.
    const deleted = (e: Record<string, any>) =>
      e.type === 'realm_user' &&
      e.person.user_id === iago.id &&
      e.person.avatar_version === uploaded.avatar_version + 1;
    const event = await watcher.next(deleted);
    expect(event.person).toEqual({
      user_id: iago.id,
      avatar_source: 'G',
      avatar_url: response.body.avatar_url,
      // Zulip's medium Gravatar asks for 500 pixels.
      avatar_url_medium: (response.body.avatar_url as string).replace('?d=identicon', '?d=identicon&s=500'),
      avatar_version: uploaded.avatar_version + 1,
    });
    const seen = await gravatarWatcher.next(deleted);
    // Zulip sends the default picture's URL to client_gravatar queues too.
    expect(seen.person).toEqual(event.person);
  });

  it("refuses what Zulip refuses, with Zulip's errors, and changes nothing", async () => {
    const client = world.as('othello');
    const version = (await client.get('/users/me')).body.avatar_version;
    expectError(await upload(client, []), 400, 'BAD_REQUEST', 'You must upload exactly one avatar.');
    expectError(
      await upload(client, [{ data: PNG }, { data: GIF }]),
      400,
      'BAD_REQUEST',
      'You must upload exactly one avatar.',
    );
    expectError(
      await upload(client, [{ data: Buffer.from('not an image at all'), name: 'me.png' }]),
      400,
      'BAD_IMAGE',
      'Could not decode image; did you upload an image file?',
    );
    // A PNG signature on something that does not decode is no image either.
    expectError(
      await upload(client, [{ data: Buffer.concat([PNG.subarray(0, 16), Buffer.from('garbage')]), name: 'me.png' }]),
      400,
      'BAD_IMAGE',
      'Could not decode image; did you upload an image file?',
    );
    const large = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    expectError(
      await upload(client, [{ data: large }]),
      400,
      'BAD_REQUEST',
      'Uploaded file is larger than the allowed limit of 5 MiB',
    );
    expect((await client.get('/users/me')).body.avatar_version).toBe(version);
    expect((await fetchImage(`/user_avatars/${world.realm.realm_id}/../../etc/passwd`)).status).toBe(404);
  });

  it('keeps members from changing their picture when the organization disables it, but not administrators', async () => {
    const own = await newWorld();
    expectSuccess(await own.as('iago').patch('/realm', { avatar_changes_disabled: true }), 'PATCH', '/realm', {
      undocumented: true,
    });
    const msg = 'Avatar changes are disabled in this organization.';
    expectError(await upload(own.as('hamlet'), [{ data: PNG }]), 400, 'BAD_REQUEST', msg);
    expectError(await own.as('hamlet').delete('/users/me/avatar'), 400, 'BAD_REQUEST', msg);
    expectSuccess(await upload(own.as('iago'), [{ data: PNG }]), 'POST', '/users/me/avatar', UNDESCRIBED);
  });
});
