import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ApiClient, World } from '@confab/devkit';
import { newWorld } from './support/system';
import { admin, importedClient, writeTree } from './support/imports';

// Measured: about 50 s on the 2-core machine (a Mattermost import; an organization exported in Zulip's format and
// imported back).
jest.setTimeout(300_000);

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const ms = (s: number) => s * 1000;
const t0 = Math.floor(Date.now() / 1000) - 3 * 86_400;

/** A Mattermost bulk export (JSONL) of one team, with a second team the import leaves out. */
function mattermostExport(): Record<string, unknown> {
  const line = (type: string, value: unknown) => JSON.stringify({ type, [type]: value });
  const member = (channels: string[], roles = 'team_user') => [
    { name: 'hogwarts', roles, channels: channels.map((name) => ({ name, roles: 'channel_user' })) },
  ];
  const rows = [
    line('version', 1),
    line('team', { name: 'hogwarts', display_name: 'Hogwarts', type: 'O', description: 'The school' }),
    line('team', { name: 'other', display_name: 'Other', type: 'O' }),
    line('channel', { team: 'hogwarts', name: 'great-hall', display_name: 'Great Hall', type: 'O', header: '', purpose: 'Meals' }),
    line('channel', { team: 'hogwarts', name: 'order', display_name: 'Order', type: 'P', header: 'Secret header', purpose: '' }),
    line('user', { username: 'harry', email: 'harry@example.com', first_name: 'Harry', last_name: 'Potter', teams: member(['great-hall', 'order'], 'team_admin team_user') }),
    line('user', { username: 'ron', email: 'ron@example.com', first_name: 'Ron', last_name: 'Weasley', teams: member(['great-hall', 'order']) }),
    line('user', { username: 'luna', email: 'luna@example.com', first_name: 'Luna', last_name: 'Lovegood', teams: member(['great-hall'], 'team_guest') }),
    line('emoji', { name: 'snitch', image: 'emoji/snitch.png' }),
    line('post', {
      team: 'hogwarts',
      channel: 'great-hall',
      user: 'harry',
      message: 'Hello @ron and @channel &amp; friends',
      create_at: ms(t0),
      reactions: [
        { user: 'ron', emoji_name: 'thumbsup', create_at: ms(t0 + 5) },
        { user: 'luna', emoji_name: 'snitch', create_at: ms(t0 + 6) },
      ],
      replies: [{ user: 'ron', message: 'a reply', create_at: ms(t0 + 20) }],
      attachments: [{ path: 'files/map.png' }],
    }),
    line('post', { team: 'hogwarts', channel: 'order', user: 'ron', message: '**secret** plans', create_at: ms(t0 + 10) }),
    line('direct_channel', { members: ['harry', 'ron'] }),
    line('direct_post', { channel_members: ['harry', 'ron'], user: 'ron', message: 'psst harry', create_at: ms(t0 + 30) }),
  ];
  return { 'export.json': rows.join('\n'), 'data/files/map.png': PNG, 'emoji/snitch.png': PNG };
}

interface Message {
  id: number;
  subject: string;
  content: string;
  flags: string[];
  sender_email: string;
  reactions: { emoji_name: string; reaction_type: string; user_id: number }[];
}

async function messagesOf(client: ApiClient, narrow: unknown[]): Promise<Message[]> {
  const response = await client.get('/messages', { anchor: 'oldest', num_before: 0, num_after: 200, narrow: JSON.stringify(narrow) });
  expect(response.status).toBe(200);
  return response.body.messages as Message[];
}

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'confab-import-zulip-e2e-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('npm run admin -- import --source mattermost', () => {
  it('imports one team: users and roles, public and private channels, mentions, replies, reactions, files, DMs, emoji', async () => {
    const dir = await writeTree(join(work, 'mattermost'), mattermostExport());
    const several = await admin(['import', '--source', 'mattermost', '--from', dir, '--subdomain', `mm${randomBytes(4).toString('hex')}`]);
    expect(several.code).toBe(1);
    expect(several.stderr).toContain('the export has several teams (hogwarts, other): choose one with --team');

    const name = `mm${randomBytes(4).toString('hex')}`;
    const result = await admin(['import', '--source', 'mattermost', '--from', dir, '--team', 'hogwarts', '--subdomain', name]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const harry = await importedClient(name, 'harry@example.com');
    const users = (await harry.get('/users')).body.members as { full_name: string; role: number; user_id: number }[];
    expect(users.map((u) => [u.full_name, u.role]).sort()).toEqual([
      ['Harry Potter', 100],
      ['Luna Lovegood', 600],
      ['Ron Weasley', 400],
    ]);
    const streams = (await harry.get('/streams')).body.streams as { name: string; invite_only: boolean; description: string }[];
    expect(streams.map((s) => [s.name, s.invite_only, s.description]).sort()).toEqual([
      ['Great Hall', false, 'Meals'],
      ['Order', true, 'Secret header'],
    ]);
    const hall = await messagesOf(harry, [{ operator: 'channel', operand: 'Great Hall' }]);
    expect(hall.map((m) => m.subject)).toEqual(['imported from mattermost', 'imported from mattermost']);
    const ron = users.find((u) => u.full_name === 'Ron Weasley')!;
    expect(hall[0]!.content).toContain(`<span class="user-mention" data-user-id="${ron.user_id}">@Ron Weasley</span>`);
    expect(hall[0]!.content).toContain('channel-wildcard-mention');
    expect(hall[0]!.content).toContain('&amp; friends');
    expect(hall[0]!.reactions.map((r) => [r.emoji_name, r.reaction_type]).sort()).toEqual([
      ['+1', 'unicode_emoji'],
      ['snitch', 'realm_emoji'],
    ]);
    const link = /href="(\/user_uploads\/[^"]+)"/.exec(hall[0]!.content)![1]!;
    expect((await harry.request('GET', link)).status).toBe(200);
    expect(hall[1]!.content).toBe('<p>a reply</p>');
    expect(Object.values((await harry.get('/realm/emoji')).body.emoji as Record<string, { name: string }>).map((e) => e.name)).toEqual(['snitch']);
    const order = await messagesOf(harry, [{ operator: 'channel', operand: 'Order' }]);
    expect(order.map((m) => m.content)).toEqual(['<p><strong>secret</strong> plans</p>']);
    // Zulip's rule: an export of several teams says nothing of which team a direct message belongs to, so they stay out.
    expect(await messagesOf(harry, [{ operator: 'is', operand: 'dm' }])).toEqual([]);
    expect(result.stdout).toContain('direct messages left out: the export has several teams');
    // Luna, a guest of the Great Hall only, sees no private channel.
    const luna = await importedClient(name, 'luna@example.com');
    const lunaSubs = (await luna.get('/users/me/subscriptions')).body.subscriptions as { name: string }[];
    expect(lunaSubs.map((s) => s.name)).toEqual(['Great Hall']);
  });
});

describe('export in Zulip’s format, imported back (the round trip)', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('gives the same users, channels, subscriptions, messages, reactions, uploads and settings', async () => {
    const hamlet = world.as('hamlet');
    const upload = await hamlet.post('/api/v1/user_uploads', {}, {
      files: [{ field: 'file', filename: 'plan.txt', contentType: 'text/plain', data: Buffer.from('the plan') }],
    });
    expect(upload.status).toBe(200);
    const sent = await hamlet.post('/messages', {
      type: 'stream',
      to: 'Verona',
      topic: 'plans',
      content: `@**Othello, the Moor of Venice** see [plan.txt](${upload.body.url as string})`,
    });
    expect(sent.status).toBe(200);
    await world.as('othello').post(`/messages/${sent.body.id as number}/reactions`, { emoji_name: 'tada' });
    await hamlet.post('/messages/flags', { messages: JSON.stringify([sent.body.id]), op: 'add', flag: 'starred' });
    await hamlet.post('/messages', { type: 'direct', to: JSON.stringify([world.user('iago').id]), content: 'between us' });
    await hamlet.post('/user_topics', { stream_id: (await hamlet.get('/get_stream_id', { stream: 'Verona' })).body.stream_id, topic: 'plans', visibility_policy: 3 });
    await hamlet.patch('/settings', { twenty_four_hour_time: true });
    const group = await world.as('iago').post('/user_groups/create', {
      name: 'actors',
      description: 'On stage',
      members: JSON.stringify([world.user('hamlet').id, world.user('othello').id]),
    });
    expect(group.status).toBe(200);

    const archive = join(work, 'zulip-export.tar.gz');
    const exported = await admin(['export', '--realm', world.realm.string_id, '--out', archive, '--type', 'full']);
    expect({ code: exported.code, stderr: exported.stderr }).toEqual({ code: 0, stderr: '' });
    const name = `rt${randomBytes(4).toString('hex')}`;
    const imported = await admin(['import', '--source', 'zulip', '--from', archive, '--subdomain', name]);
    expect({ code: imported.code, stderr: imported.stderr }).toEqual({ code: 0, stderr: '' });

    const before = hamlet;
    const after = await importedClient(name, world.user('hamlet').email);
    const people = async (client: ApiClient) =>
      ((await client.get('/users')).body.members as { email: string; full_name: string; role: number; is_bot: boolean; is_active: boolean }[])
        .map((u) => [u.email, u.full_name, u.role, u.is_bot, u.is_active])
        .sort();
    expect(await people(after)).toEqual(await people(before));
    const channels = async (client: ApiClient) =>
      ((await client.get('/streams')).body.streams as { name: string; invite_only: boolean; description: string }[])
        .map((s) => [s.name, s.invite_only, s.description])
        .sort();
    expect(await channels(after)).toEqual(await channels(before));
    const subscriptions = async (client: ApiClient) =>
      ((await client.get('/users/me/subscriptions')).body.subscriptions as { name: string; color: string }[])
        .map((s) => [s.name, s.color])
        .sort();
    expect(await subscriptions(after)).toEqual(await subscriptions(before));

    const verona = async (client: ApiClient) =>
      (await messagesOf(client, [{ operator: 'channel', operand: 'Verona' }])).map((m) => ({
        subject: m.subject,
        text: m.content.replace(/<[^>]+>/g, ''),
        flags: m.flags.sort(),
        reactions: m.reactions.map((r) => r.emoji_name),
      }));
    expect(await verona(after)).toEqual(await verona(before));
    const [message] = await messagesOf(after, [{ operator: 'channel', operand: 'Verona' }, { operator: 'topic', operand: 'plans' }]);
    const link = /href="(\/user_uploads\/[^"]+)"/.exec(message!.content)![1]!;
    const file = await after.request('GET', link);
    expect({ status: file.status, text: file.text }).toEqual({ status: 200, text: 'the plan' });
    const dms = async (client: ApiClient) => (await messagesOf(client, [{ operator: 'is', operand: 'dm' }])).map((m) => m.content);
    expect(await dms(after)).toEqual(await dms(before));

    const settings = async (client: ApiClient) => {
      const state = (await client.post('/register', { fetch_event_types: JSON.stringify(['user_settings', 'user_topic', 'realm_user_groups']) })).body;
      return {
        twentyFour: state.user_settings.twenty_four_hour_time as boolean,
        topics: (state.user_topics as { topic_name: string; visibility_policy: number }[]).map((t) => [t.topic_name, t.visibility_policy]),
        groups: (state.realm_user_groups as { name: string; is_system_group: boolean; members: number[] }[])
          .filter((g) => !g.is_system_group)
          .map((g) => [g.name, g.members.length]),
      };
    };
    expect(await settings(after)).toEqual(await settings(before));
    expect((await settings(after)).twentyFour).toBe(true);
  });
});
