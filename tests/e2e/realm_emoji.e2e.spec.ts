import type { ApiClient, World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { EventTap } from './support/events';
import { expectError, expectSuccess } from './support/expect';
import { internalRequest } from './support/internal';
import { newWorld, system } from './support/system';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const TIFF = Buffer.from('49492a000800000000000000', 'hex');

type Emoji = {
  id: string;
  name: string;
  source_url: string;
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
};

const upload = (client: ApiClient, name: string, files: { data: Buffer; filename?: string }[] = [{ data: PNG }]) =>
  client.post(
    `/realm/emoji/${encodeURIComponent(name)}`,
    {},
    {
      files: files.map((f, i) => ({
        field: `f${i + 1}`,
        filename: f.filename ?? 'emoji.png',
        contentType: 'image/png',
        data: f.data,
      })),
    },
  );

async function emojiList(client: ApiClient): Promise<Record<string, Emoji>> {
  const response = await client.get('/realm/emoji');
  expectSuccess(response, 'GET', '/realm/emoji');
  return response.body.emoji as Record<string, Emoji>;
}

const byName = (list: Record<string, Emoji>, name: string) => Object.values(list).filter((e) => e.name === name);

describe('custom emoji', () => {
  let world: World;
  let tap: EventTap;
  beforeAll(async () => {
    world = await newWorld();
    tap = await EventTap.open(['realm_emoji.*']);
  });
  afterAll(() => tap.close());

  it('uploads an emoji, lists it, serves its image without credentials and tells everyone', async () => {
    const hamlet = world.user('hamlet');
    const watcher = await EventQueue.register(world.as('cordelia'), { event_types: ['realm_emoji'] });
    expectSuccess(await upload(world.as('hamlet'), 'party parrot'), 'POST', '/realm/emoji/{emoji_name}');

    const [emoji] = byName(await emojiList(world.as('othello')), 'party_parrot');
    expect(emoji).toEqual({
      id: expect.any(String),
      name: 'party_parrot',
      source_url: `/user_avatars/${world.realm.realm_id}/emoji/images/${emoji!.id}.png`,
      still_url: null,
      deactivated: false,
      author_id: hamlet.id,
    });
    const image = await fetch(new URL(emoji!.source_url, system().gatewayUrl));
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).equals(PNG)).toBe(true);
    expect(
      (await fetch(new URL(`/user_avatars/${world.realm.realm_id}/emoji/images/0.png`, system().gatewayUrl))).status,
    ).toBe(404);

    const event = await watcher.next((e) => e.type === 'realm_emoji' && emoji!.id in e.realm_emoji);
    expect(event).toEqual({ id: event.id, type: 'realm_emoji', op: 'update', realm_emoji: { [emoji!.id]: emoji } });
    const published = await tap.next((e) => e.type === 'realm_emoji.added' && e.payload.emoji.id === emoji!.id);
    expect(published.payload).toEqual({ realm_id: world.realm.realm_id, emoji, realm_emoji: { [emoji!.id]: emoji } });

    const state = await EventQueue.register(world.as('iago'), { fetch_event_types: ['realm_emoji'] });
    expect(state.registration.realm_emoji).toEqual({ [emoji!.id]: emoji });
    await state.delete();
    await watcher.delete();

    // The same, paged by organization for services that keep a copy (messaging's backfill).
    const page = await internalRequest<{ realms: { realm_id: number; realm_emoji: Record<string, unknown> }[] }>(
      'settings',
      'GET',
      `/realm_emoji?after_id=${world.realm.realm_id - 1}`,
    );
    expect(page.status).toBe(200);
    expect(page.body.realms[0]).toEqual({ realm_id: world.realm.realm_id, realm_emoji: { [emoji!.id]: emoji } });
  });

  it('deactivates an emoji for its author or an administrator, and lets the name be used again', async () => {
    expectSuccess(
      await upload(world.as('othello'), 'gopher', [{ data: GIF, filename: 'g.gif' }]),
      'POST',
      '/realm/emoji/{emoji_name}',
    );
    const [gopher] = byName(await emojiList(world.as('othello')), 'gopher');
    expect(gopher!.source_url).toMatch(/\.gif$/);
    expectError(
      await world.as('cordelia').delete('/realm/emoji/gopher'),
      400,
      'BAD_REQUEST',
      'Must be an organization administrator or emoji author',
    );
    expectError(
      await world.as('iago').delete('/realm/emoji/no_such'),
      404,
      'BAD_REQUEST',
      "Emoji 'no_such' does not exist",
    );
    const watcher = await EventQueue.register(world.as('aaron'), { event_types: ['realm_emoji'] });
    expectSuccess(await world.as('othello').delete('/realm/emoji/gopher'), 'DELETE', '/realm/emoji/{emoji_name}');
    expect(byName(await emojiList(world.as('aaron')), 'gopher')).toEqual([{ ...gopher, deactivated: true }]);
    await watcher.next((e) => e.type === 'realm_emoji' && e.realm_emoji[gopher!.id]?.deactivated === true);
    await tap.next((e) => e.type === 'realm_emoji.deactivated' && e.payload.emoji.id === gopher!.id);
    // The old image stays for old messages; the name is free again.
    expect((await fetch(new URL(gopher!.source_url, system().gatewayUrl))).status).toBe(200);
    expectSuccess(await upload(world.as('prospero'), 'gopher'), 'POST', '/realm/emoji/{emoji_name}');
    expect(byName(await emojiList(world.as('aaron')), 'gopher')).toHaveLength(2);
    expectSuccess(await world.as('iago').delete('/realm/emoji/gopher'), 'DELETE', '/realm/emoji/{emoji_name}');
    await watcher.delete();
  });

  it.each([
    ['my_emoji_', 'Emoji names must end with either a letter or digit.'],
    ['my_EMoji', 'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.'],
    [
      'my/emoji/with/slash',
      'Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.',
    ],
    [' ', 'Emoji name is missing'],
  ])('refuses the name %j', async (name, msg) => {
    expectError(await upload(world.as('iago'), name), 400, 'BAD_REQUEST', msg);
  });

  it("refuses uploads with Zulip's errors, in Zulip's order", async () => {
    expectSuccess(await upload(world.as('aaron'), 'taken'), 'POST', '/realm/emoji/{emoji_name}');
    const aaron = world.as('aaron');
    expectError(await upload(world.as('polonius'), 'guest_emoji'), 400, 'BAD_REQUEST', 'Not allowed for guest users');
    expectError(await upload(aaron, 'taken'), 400, 'BAD_REQUEST', 'A custom emoji with this name already exists.');
    expectError(await upload(aaron, 'none', []), 400, 'BAD_REQUEST', 'You must upload exactly one file.');
    expectError(
      await upload(aaron, 'two', [{ data: PNG }, { data: PNG }]),
      400,
      'BAD_REQUEST',
      'You must upload exactly one file.',
    );
    expectError(await upload(aaron, 'laughing'), 400, 'BAD_REQUEST', 'Only administrators can override default emoji.');
    expectError(
      await upload(aaron, 'tiff', [{ data: TIFF, filename: 'a.tif' }]),
      400,
      'BAD_REQUEST',
      'Invalid image format',
    );
    expectError(
      await upload(aaron, 'huge', [{ data: Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]) }]),
      400,
      'BAD_REQUEST',
      'Uploaded file is larger than the allowed limit of 5 MiB',
    );
    // An administrator may override a built-in emoji.
    expectSuccess(await upload(world.as('iago'), 'smile'), 'POST', '/realm/emoji/{emoji_name}');
  });

  it("follows the organization's can_add_custom_emoji_group", async () => {
    const other = await newWorld();
    const patched = await internalRequest('settings', 'PATCH', `/dev/realms/${other.realm.realm_id}`, {
      permissions: { can_add_custom_emoji_group: 'role:administrators' },
    });
    expect(patched.status).toBe(200);
    expectError(await upload(other.as('shiva'), 'mod_emoji'), 400, 'BAD_REQUEST', 'Insufficient permission');
    expectSuccess(await upload(other.as('iago'), 'admin_emoji'), 'POST', '/realm/emoji/{emoji_name}');
  });

  it('renders custom emoji in messages and accepts them as reactions until deactivated', async () => {
    const hamlet = world.as('hamlet');
    expectSuccess(await upload(hamlet, 'confab_wave'), 'POST', '/realm/emoji/{emoji_name}');
    const [emoji] = byName(await emojiList(hamlet), 'confab_wave');
    // The uploader's own next request already sees it (read-your-writes), in rendering and in reactions.
    const sent = await hamlet.post('/messages', {
      type: 'stream',
      to: 'Verona',
      topic: 'custom emoji',
      content: 'hello :confab_wave:',
    });
    expectSuccess(sent, 'POST', '/messages');
    const id = sent.body.id as number;
    const message = (await world.as('othello').get(`/messages/${id}`)).body.message as Record<string, any>;
    expect(message.content).toBe(
      `<p>hello <img alt=":confab_wave:" class="emoji" src="${emoji!.source_url}" title="confab wave"></p>`,
    );

    expectError(
      await hamlet.post(`/messages/${id}/reactions`, {
        emoji_name: 'other_name',
        emoji_code: emoji!.id,
        reaction_type: 'realm_emoji',
      }),
      400,
      'BAD_REQUEST',
      'Invalid custom emoji name.',
    );
    const watcher = await EventQueue.register(world.as('cordelia'), { event_types: ['reaction'] });
    const reacted = await world.as('othello').post(`/messages/${id}/reactions`, { emoji_name: 'confab_wave' });
    expectSuccess(reacted, 'POST', '/messages/{message_id}/reactions');
    const event = await watcher.next((e) => e.type === 'reaction' && e.message_id === id);
    expect(event).toMatchObject({
      op: 'add',
      emoji_name: 'confab_wave',
      emoji_code: emoji!.id,
      reaction_type: 'realm_emoji',
      user_id: world.user('othello').id,
    });
    const read = (await hamlet.get(`/messages/${id}`)).body.message as Record<string, any>;
    expect(read.reactions).toEqual([
      expect.objectContaining({ emoji_name: 'confab_wave', emoji_code: emoji!.id, reaction_type: 'realm_emoji' }),
    ]);
    expectSuccess(
      await world.as('othello').delete(`/messages/${id}/reactions`, { emoji_name: 'confab_wave' }),
      'DELETE',
      '/messages/{message_id}/reactions',
    );

    expectSuccess(await hamlet.delete('/realm/emoji/confab_wave'), 'DELETE', '/realm/emoji/{emoji_name}');
    expectError(
      await hamlet.post(`/messages/${id}/reactions`, {
        emoji_name: 'confab_wave',
        emoji_code: emoji!.id,
        reaction_type: 'realm_emoji',
      }),
      400,
      'BAD_REQUEST',
      'This custom emoji has been deactivated.',
    );
    expectError(
      await hamlet.post(`/messages/${id}/reactions`, { emoji_name: 'confab_wave' }),
      400,
      'BAD_REQUEST',
      "Emoji 'confab_wave' does not exist",
    );
    const after = await hamlet.post('/messages', {
      type: 'stream',
      to: 'Verona',
      topic: 'custom emoji',
      content: 'bye :confab_wave:',
    });
    expect((await hamlet.get(`/messages/${after.body.id as number}`)).body.message.content).toBe(
      '<p>bye :confab_wave:</p>',
    );
    await watcher.delete();
  });
});
