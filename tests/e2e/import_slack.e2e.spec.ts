import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { ApiClient } from '@confab/devkit';
import { system } from './support/system';
import { pngOf, pngSize } from './support/images';
import { admin, importedClient, lastRealmId, leftoversOf, rawZipOf, writeTree, zipOf } from './support/imports';
import { loopbackOutsideAllowList, StubSite } from './support/web-stub';

// Measured: about 40 s on a quiet 2-core machine (three imports of a small Slack export, four refused archives, two
// failed imports); each import is a CLI with four loader processes, which a machine loaded twenty times over slows
// to a minute or two.
jest.setTimeout(300_000);

const DAY = 86_400;
const now = Math.floor(Date.now() / 1000);
const recent = now - 5 * DAY;
const old = now - 200 * DAY;
const day = (ts: number) => new Date(ts * 1000).toISOString().slice(0, 10);
const ts = (s: number) => `${s}.000100`;
const NOTES = Buffer.from('Notes of the planning meeting\n');

/** A small Slack export: every kind of user, public, private and archived channels, a thread, DMs, files. */
function slackExport(): Record<string, unknown> {
  const person = (id: string, name: string, real: string, extra: Record<string, unknown> = {}, email?: string) => ({
    id,
    name,
    real_name: real,
    deleted: false,
    tz: 'Europe/Paris',
    profile: { real_name: real, ...(email ? { email } : {}) },
    ...extra,
  });
  const users = [
    person('U1', 'ava', 'Ava Owner', { is_primary_owner: true, is_owner: true }, 'ava@example.com'),
    person('U2', 'ben', 'Ben Admin', { is_admin: true }, 'ben@example.com'),
    person('U3', 'cal', 'Cal Member', {}, 'cal@example.com'),
    person('U4', 'dee', 'Dee Guest', { is_restricted: true }, 'dee@example.com'),
    { ...person('U5', 'eve', 'Eve Gone', {}, 'eve@example.com'), deleted: true },
    person('U6', 'fay', 'Fay Listed'),
    person('U7', 'gus', 'Gus Unlisted'),
    {
      id: 'U8',
      name: 'deploybot',
      real_name: 'Deploy Bot',
      deleted: false,
      is_bot: true,
      profile: { bot_id: 'B1', real_name_normalized: 'Deploy Bot' },
    },
  ];
  const everyone = users.map((u) => u.id);
  const general = [
    { type: 'message', user: 'U4', text: 'an old note from a guest', ts: ts(old) },
    { type: 'message', user: 'U5', text: 'I was here once', ts: ts(old + 10) },
    { type: 'message', user: 'U1', text: 'Hello *everyone* and _welcome_ to <https://example.com|our site>', ts: ts(recent) },
    { type: 'message', user: 'U2', text: '<@U3> please look at <#C2|random>', ts: ts(recent + 10) },
    { type: 'message', user: 'U3', text: 'Release planning thread', ts: ts(recent + 20), thread_ts: ts(recent + 20) },
    {
      type: 'message',
      user: 'U1',
      text: 'I can take it',
      ts: ts(recent + 30),
      thread_ts: ts(recent + 20),
      parent_user_id: 'U3',
    },
    {
      type: 'message',
      user: 'U2',
      text: '<!channel> standup now',
      ts: ts(recent + 40),
      reactions: [
        { name: '+1', users: ['U1', 'U3'], count: 2 },
        { name: '+1::skin-tone-2', users: ['U1', 'U2'], count: 2 },
      ],
    },
    {
      type: 'message',
      user: 'U3',
      text: 'the notes',
      ts: ts(recent + 50),
      files: [{ id: 'F1', name: 'notes.txt', title: 'Notes', mimetype: 'text/plain', size: NOTES.length, url_private: 'https://files.slack.com/files-pri/T1-F1/notes.txt' }],
    },
    {
      type: 'message',
      user: 'U1',
      text: 'the deck',
      ts: ts(recent + 60),
      files: [{ id: 'F2', name: 'deck.pdf', title: 'Deck', mimetype: 'application/pdf', url_private: 'https://files.slack.com/files-pri/T1-F2/deck.pdf' }],
    },
    { type: 'message', subtype: 'channel_join', user: 'U6', text: '<@U6> has joined the channel', ts: ts(recent + 70) },
  ];
  return {
    'users.json': users,
    'channels.json': [
      { id: 'C1', name: 'general', created: old, members: everyone, is_archived: false, purpose: { value: 'Company-wide' } },
      { id: 'C2', name: 'random', created: old, members: ['U1', 'U2', 'U3'], is_archived: false, purpose: { value: 'Anything' } },
      { id: 'C3', name: 'old-stuff', created: old, members: ['U1'], is_archived: true, purpose: { value: '' } },
    ],
    'groups.json': [{ id: 'G1', name: 'secret', created: old, members: ['U1', 'U2'], is_archived: false, purpose: { value: 'Private talk' } }],
    'dms.json': [{ id: 'D1', members: ['U1', 'U3'] }],
    'mpims.json': [{ id: 'G2', name: 'mpdm-ava--ben--cal-1', members: ['U1', 'U2', 'U3'] }],
    [`general/${day(old)}.json`]: general.slice(0, 2),
    [`general/${day(recent)}.json`]: general.slice(2),
    [`random/${day(recent)}.json`]: [
      { type: 'message', user: 'U2', text: 'random chatter', ts: ts(recent + 5), edited: { user: 'U2', ts: ts(recent + 500) } },
    ],
    [`secret/${day(recent)}.json`]: [{ type: 'message', user: 'U1', text: 'private plan', ts: ts(recent + 6) }],
    [`D1/${day(recent)}.json`]: [
      { type: 'message', user: 'U1', text: 'hi Cal', ts: ts(recent + 7) },
      { type: 'message', user: 'U3', text: 'hi back', ts: ts(recent + 8) },
    ],
    [`mpdm-ava--ben--cal-1/${day(recent)}.json`]: [{ type: 'message', user: 'U2', text: 'group hello', ts: ts(recent + 9) }],
    '__uploads/F1/notes.txt': NOTES,
  };
}

/** Slack's users.list answer, which has the address the export left out (Zulip's --token path). */
const USERS_LIST = { ok: true, members: [{ id: 'U6', name: 'fay', profile: { email: 'fay@example.com' } }] };

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'confab-import-e2e-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

const subdomain = () => `slack${randomBytes(4).toString('hex')}`;

interface Message {
  id: number;
  sender_id: number;
  subject: string;
  content: string;
  flags: string[];
  reactions: { emoji_name: string; emoji_code: string; user_id: number }[];
}

async function channelMessages(client: ApiClient, channel: string): Promise<Message[]> {
  const response = await client.get('/messages', {
    anchor: 'oldest',
    num_before: 0,
    num_after: 100,
    narrow: JSON.stringify([{ operator: 'channel', operand: channel }]),
  });
  expect(response.status).toBe(200);
  return response.body.messages as Message[];
}

describe('npm run admin -- import --source slack', () => {
  it('imports a Slack directory: users, roles, channels, threads as topics, markup, mentions, reactions, files, DMs', async () => {
    const dir = await writeTree(join(work, 'slack-dir'), slackExport());
    const usersList = join(work, 'users.list.json');
    await writeFile(usersList, JSON.stringify(USERS_LIST));
    const name = subdomain();
    const result = await admin(['import', '--source', 'slack', '--from', dir, '--subdomain', name, '--slack-users', usersList]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout).toContain(`Imported organization '${name}'`);
    // The file Slack hosts is listed, not dropped silently.
    expect(result.stdout).toContain('deck.pdf <https://files.slack.com/files-pri/T1-F2/deck.pdf>');

    const ava = await importedClient(name, 'ava@example.com');
    const users = (await ava.get('/users')).body.members as Record<string, unknown>[];
    const byName = new Map(users.map((u) => [u.full_name as string, u]));
    expect(
      // A deleted Slack user keeps only their handle as a name (Zulip's get_user_full_name).
      ['Ava Owner', 'Ben Admin', 'Cal Member', 'Dee Guest', 'eve', 'Fay Listed', 'Deploy Bot'].map((n) => {
        const u = byName.get(n)!;
        return [n, u.role, u.is_active, u.is_bot, u.delivery_email];
      }),
    ).toEqual([
      ['Ava Owner', 100, true, false, 'ava@example.com'],
      ['Ben Admin', 200, true, false, 'ben@example.com'],
      ['Cal Member', 400, true, false, 'cal@example.com'],
      ['Dee Guest', 600, true, false, 'dee@example.com'],
      ['eve', 400, false, false, 'eve@example.com'],
      ['Fay Listed', 400, true, false, 'fay@example.com'],
      ['Deploy Bot', 400, true, true, 'deploy-bot@localhost'],
    ]);
    // No address anywhere: a placeholder at the server's domain, as Zulip's importer made them.
    expect(byName.get('Gus Unlisted')!.delivery_email).toMatch(/^slack-[0-9a-f]+@localhost$/);
    expect((await ava.get('/users/me')).body).toMatchObject({ timezone: 'Europe/Paris', is_owner: true });

    const streams = (await ava.get('/streams', { exclude_archived: false })).body.streams as Record<string, unknown>[];
    expect(
      streams
        .map((s) => [s.name, s.invite_only, s.description, s.is_archived])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual([
      ['general', false, 'Company-wide', false],
      ['old-stuff', false, '', true],
      ['random', false, 'Anything', false],
      ['secret', true, 'Private talk', false],
    ]);
    const cal = await importedClient(name, 'cal@example.com');
    const calSubs = (await cal.get('/users/me/subscriptions')).body.subscriptions as { name: string }[];
    expect(calSubs.map((s) => s.name).sort()).toEqual(['general', 'random']);

    const general = await channelMessages(ava, 'general');
    const contents = general.map((m) => [m.subject, m.content.replace(/<[^>]+>/g, '')]);
    const thread = `${day(recent + 20)} Release planning thread`;
    expect(contents).toEqual([
      ['imported from Slack', 'an old note from a guest'],
      ['imported from Slack', 'I was here once'],
      ['imported from Slack', 'Hello everyone and welcome to our site'],
      ['imported from Slack', '@Cal Member please look at #random'],
      [thread, 'Release planning thread'],
      [thread, 'I can take it'],
      ['imported from Slack', '@all standup now'],
      ['imported from Slack', 'the notes\nNotes'],
      ['imported from Slack', 'the deck\nDeck'],
    ]);
    const calId = byName.get('Cal Member')!.user_id as number;
    const [, , hello, mention, , , standup, notes] = general;
    expect(hello!.content).toContain('<strong>everyone</strong>');
    expect(hello!.content).toContain('<em>welcome</em>');
    expect(hello!.content).toContain('<a href="https://example.com">our site</a>');
    expect(mention!.content).toContain(`<span class="user-mention" data-user-id="${calId}">@Cal Member</span>`);
    expect(standup!.content).toContain('user-mention channel-wildcard-mention');
    // Skin tones merged, one reaction per user (Zulip's rule).
    expect(standup!.reactions.map((r) => [r.emoji_name, r.emoji_code, r.user_id]).sort()).toEqual(
      [byName.get('Ava Owner')!, byName.get('Ben Admin')!, byName.get('Cal Member')!]
        .map((u) => ['+1', '1f44d', u.user_id])
        .sort(),
    );
    // Dates kept: the message ids follow them.
    expect(general.map((m) => m.id)).toEqual([...general.map((m) => m.id)].sort((a, b) => a - b));

    // Cal's own rows: the mention flagged, everything read (Zulip's import rule).
    const calView = await channelMessages(cal, 'general');
    expect(calView.find((m) => m.id === mention!.id)!.flags.sort()).toEqual(['mentioned', 'read']);
    // @all flags every subscriber's row as a channel-wide mention (and the deprecated wildcard_mentioned).
    expect(calView.find((m) => m.id === standup!.id)!.flags.sort()).toEqual([
      'read',
      'stream_wildcard_mentioned',
      'wildcard_mentioned',
    ]);
    expect(calView.find((m) => m.id === hello!.id)!.flags).toEqual(['read']);

    // The file of the export is an upload of the organization, linked from its message.
    const link = /href="(\/user_uploads\/[^"]+)"/.exec(notes!.content)![1]!;
    const file = await cal.request('GET', link);
    expect({ status: file.status, text: file.text }).toEqual({ status: 200, text: NOTES.toString() });

    // Direct and group direct messages.
    const dm = await ava.get('/messages', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 10,
      narrow: JSON.stringify([{ operator: 'dm', operand: [calId] }]),
    });
    expect((dm.body.messages as Message[]).map((m) => m.content)).toEqual(['<p>hi Cal</p>', '<p>hi back</p>']);
    const ben = await importedClient(name, 'ben@example.com');
    const group = await ben.get('/messages', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 10,
      narrow: JSON.stringify([{ operator: 'is', operand: 'dm' }]),
    });
    expect((group.body.messages as Message[]).map((m) => m.content)).toEqual(['<p>group hello</p>']);
    const random = await channelMessages(ben, 'random');
    expect(random.map((m) => [m.content, (m as unknown as { last_edit_timestamp?: number }).last_edit_timestamp])).toEqual([
      ['<p>random chatter</p>', recent + 500],
    ]);

    // Dee, a long-term idle guest, got no rows for the channel messages; her first request adds them (Zulip's
    // soft reactivation), so her combined feed has them.
    const dee = await importedClient(name, 'dee@example.com');
    const feed = await dee.get('/messages', { anchor: 'oldest', num_before: 0, num_after: 100 });
    expect((feed.body.messages as Message[]).map((m) => m.id)).toEqual(general.map((m) => m.id));

    // A message sent now follows every imported one.
    const sent = await ava.post('/messages', { type: 'stream', to: 'general', topic: 'after the move', content: 'hello Confab' });
    expect(sent.status).toBe(200);
    expect(sent.body.id).toBeGreaterThan(Math.max(...general.map((m) => m.id)));
  });

  it("fetches users' own pictures and emoji.list's custom emoji through the guarded client; failures are listed", async () => {
    const AVATAR = pngOf(300, 200, 0x40);
    const PARROT = pngOf(32, 32, 0xc0);
    const site = await new StubSite()
      .serve('/avatars/ava-512.png', 'image/png', AVATAR)
      .serve('/emoji/parrot.png', 'image/png', PARROT)
      // Larger than the 5 MiB an image may be (Zulip's limit for avatars and emoji).
      .serve('/emoji/huge.png', 'image/png', Buffer.concat([PARROT, Buffer.alloc(6 * 1024 * 1024)]))
      .serve('/emoji/page.png', 'text/html', '<html>not an image</html>')
      .start();
    try {
      const files = slackExport();
      const refused = `http://${loopbackOutsideAllowList()}:9/avatars/fay.png`;
      const pictures: Record<string, Record<string, unknown>> = {
        // Her own picture, by its profile URLs.
        U1: { image_72: site.url('/avatars/ava-72.png'), image_512: site.url('/avatars/ava-512.png'), avatar_hash: '8a1b2c3d4e5f' },
        // A picture that is gone: the default avatar, and a line in the summary.
        U2: { image_512: site.url('/avatars/gone.png') },
        // Gravatar's picture (and Slack's stock image behind it) stays the default avatar, and is not fetched.
        U3: {
          avatar_hash: 'g1260bbb9ad8',
          image_72: `https://secure.gravatar.com/avatar/1260bbb9ad836a3122d081d49d083214.jpg?s=72&d=${site.url('/avatars/stock.png')}`,
        },
        // An address the server may not reach: refused by the guard, never connected to.
        U6: { image_512: refused },
      };
      const users = (files['users.json'] as { id: string; profile: Record<string, unknown> }[]).map((u) =>
        pictures[u.id] ? { ...u, team_id: 'T1', profile: { ...u.profile, ...pictures[u.id] } } : u,
      );
      const general = [
        ...(files[`general/${day(recent)}.json`] as object[]),
        {
          type: 'message',
          user: 'U3',
          text: 'look :partyparrot: and :huge:',
          ts: ts(recent + 80),
          reactions: [
            { name: 'partyparrot', users: ['U1', 'U2'], count: 2 },
            // An alias of a custom emoji is that emoji; one of a Unicode emoji is that one.
            { name: 'party_parrot', users: ['U2', 'U3'], count: 2 },
            { name: 'thumbsup_all', users: ['U1'], count: 1 },
            // Its image could not be fetched: no emoji, and (as Zulip leaves out reactions it cannot find) no reaction.
            { name: 'huge', users: ['U1'], count: 1 },
          ],
        },
      ];
      const dir = await writeTree(join(work, 'slack-images'), {
        ...files,
        'users.json': users,
        [`general/${day(recent)}.json`]: general,
      });
      const emojiList = join(work, 'emoji.list.json');
      await writeFile(
        emojiList,
        JSON.stringify({
          ok: true,
          emoji: {
            partyparrot: site.url('/emoji/parrot.png'),
            party_parrot: 'alias:partyparrot',
            thumbsup_all: 'alias:+1',
            huge: site.url('/emoji/huge.png'),
            page: site.url('/emoji/page.png'),
          },
        }),
      );
      const name = subdomain();
      const result = await admin(['import', '--source', 'slack', '--from', dir, '--subdomain', name, '--slack-emoji', emojiList]);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      expect(result.stdout).toMatch(/ avatars +1\n/);
      expect(result.stdout).toMatch(/ custom emoji +1\n/);
      expect(result.stdout).toContain('Images the export names by URL that could not be fetched (left out): 4');
      expect(result.stdout).toContain(`avatar of Ben Admin (U2): HTTP 404 <${site.url('/avatars/gone.png')}>`);
      expect(result.stdout).toMatch(new RegExp(`avatar of Fay Listed \\(U6\\): refused: .*not a public network <${refused.replace(/[.]/g, '\\.')}>`));
      expect(result.stdout).toContain(`custom emoji :huge:: too large: more than 5242880 bytes <${site.url('/emoji/huge.png')}>`);
      expect(result.stdout).toContain(`custom emoji :page:: not an image (PNG, GIF, JPEG or WebP) <${site.url('/emoji/page.png')}>`);
      // The largest picture only, once; Gravatar's and Slack's stock pictures not at all.
      expect(site.received.map((r) => r.path).sort()).toEqual(
        ['/avatars/ava-512.png', '/avatars/gone.png', '/emoji/huge.png', '/emoji/page.png', '/emoji/parrot.png'].sort(),
      );

      const ava = await importedClient(name, 'ava@example.com');
      const members = (await ava.get('/users', { client_gravatar: false })).body.members as Record<string, unknown>[];
      const byName = new Map(members.map((u) => [u.full_name as string, u]));
      const avaUrl = byName.get('Ava Owner')!.avatar_url as string;
      expect(avaUrl).toMatch(new RegExp(`^/user_avatars/\\d+/${byName.get('Ava Owner')!.user_id as number}-[0-9a-f]+\\.png\\?version=2$`));
      const picture = await fetch(new URL(avaUrl, system().gatewayUrl));
      expect({ status: picture.status, type: picture.headers.get('content-type') }).toEqual({ status: 200, type: 'image/png' });
      // Resized as an uploaded avatar is (Zulip's 100×100).
      expect(pngSize(Buffer.from(await picture.arrayBuffer()))).toEqual({ width: 100, height: 100 });
      for (const person of ['Ben Admin', 'Cal Member', 'Fay Listed'])
        expect({ person, url: byName.get(person)!.avatar_url }).toEqual({ person, url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\//) });

      const emoji = Object.values((await ava.get('/realm/emoji')).body.emoji as Record<string, Record<string, unknown>>);
      expect(emoji.map((e) => [e.name, e.deactivated, e.author_id])).toEqual([['partyparrot', false, null]]);
      const parrot = emoji[0]!;
      const image = await fetch(new URL(parrot.source_url as string, system().gatewayUrl));
      expect(image.status).toBe(200);
      expect(Buffer.from(await image.arrayBuffer()).equals(PARROT)).toBe(true);

      const last = (await channelMessages(ava, 'general')).pop()!;
      expect(last.content).toBe(
        `<p>look <img alt=":partyparrot:" class="emoji" src="${parrot.source_url as string}" title="partyparrot"> and :huge:</p>`,
      );
      const id = (n: string) => byName.get(n)!.user_id as number;
      expect(
        (last.reactions as unknown as { emoji_name: string; emoji_code: string; reaction_type: string; user_id: number }[])
          .map((r) => [r.emoji_name, r.emoji_code, r.reaction_type, r.user_id])
          .sort(),
      ).toEqual(
        [
          ['partyparrot', String(parrot.id), 'realm_emoji', id('Ava Owner')],
          ['partyparrot', String(parrot.id), 'realm_emoji', id('Ben Admin')],
          ['partyparrot', String(parrot.id), 'realm_emoji', id('Cal Member')],
          ['+1', '1f44d', 'unicode_emoji', id('Ava Owner')],
        ].sort(),
      );
    } finally {
      await site.stop();
    }
  });

  it('imports the same export as a .zip', async () => {
    const dir = await writeTree(join(work, 'slack-zip-src'), slackExport());
    const zip = await zipOf(join(work, 'slack.zip'), dir);
    const name = subdomain();
    const result = await admin(['import', '--source', 'slack', '--from', zip, '--subdomain', name]);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const ava = await importedClient(name, 'ava@example.com');
    expect((await channelMessages(ava, 'general')).length).toBe(9);
  });

  it('a truncated export fails, says which file, and leaves nothing behind', async () => {
    const files = slackExport();
    const broken = JSON.stringify(files[`general/${day(recent)}.json`]).slice(0, 200);
    const dir = await writeTree(join(work, 'slack-truncated'), { ...files, [`general/${day(recent)}.json`]: broken });
    const before = await lastRealmId();
    const name = subdomain();
    const result = await admin(['import', '--source', 'slack', '--from', dir, '--subdomain', name]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`Import failed, nothing was imported: general/${day(recent)}.json: not valid JSON`);
    expect(await leftoversOf(name, before)).toEqual({ settings: 0, messaging: 0, groups: 0, push: 0 });
  });

  it('an export that fails midway (after users and groups were staged) leaves nothing in any service', async () => {
    const files = slackExport();
    const channels = [...(files['channels.json'] as object[]), { id: 'C9', name: 'General', members: ['U1'], purpose: { value: '' } }];
    const dir = await writeTree(join(work, 'slack-midway'), { ...files, 'channels.json': channels });
    const before = await lastRealmId();
    const name = subdomain();
    const result = await admin(['import', '--source', 'slack', '--from', dir, '--subdomain', name]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("channel C9: the channel name 'General' is taken by channel C1");
    expect(await leftoversOf(name, before)).toEqual({ settings: 0, messaging: 0, groups: 0, push: 0 });
    // The subdomain is still free.
    const again = await admin(['import', '--source', 'slack', '--from', await writeTree(join(work, 'slack-again'), slackExport()), '--subdomain', name]);
    expect(again.code).toBe(0);
  });

  it('refuses hostile archives without writing outside its working directory', async () => {
    const marker = `escaped-${randomBytes(4).toString('hex')}.txt`;
    const channels = Buffer.from('[]');
    const cases: [string, { name: string; data: Buffer; mode?: number }[], string][] = [
      ['dotdot.zip', [{ name: 'channels.json', data: channels }, { name: `../../${marker}`, data: Buffer.from('x') }], 'invalid relative path'],
      ['absolute.zip', [{ name: `/tmp/${marker}`, data: Buffer.from('x') }], 'absolute'],
      ['symlink.zip', [{ name: 'users.json', data: Buffer.from('/etc/passwd'), mode: 0o120777 }], 'symbolic link'],
    ];
    for (const [file, entries, why] of cases) {
      const zip = await rawZipOf(join(work, file), entries);
      const result = await admin(['import', '--source', 'slack', '--from', zip, '--subdomain', subdomain()]);
      expect({ file, code: result.code }).toEqual({ file, code: 1 });
      expect(result.stderr.toLowerCase()).toContain(why);
    }
    expect(existsSync(join(tmpdir(), marker))).toBe(false);
    expect(existsSync(join('/tmp', marker))).toBe(false);

    // A bomb: 64 MiB of zeros in a zip of a few hundred KiB.
    const bombDir = await writeTree(join(work, 'bomb'), { 'channels.json': [], 'users.json': [], 'general/2020-01-01.json': Buffer.alloc(64 * 1024 * 1024) });
    const bomb = await zipOf(join(work, 'bomb.zip'), bombDir);
    expect((await readFile(bomb)).length).toBeLessThan(1024 * 1024);
    const result = await admin(['import', '--source', 'slack', '--from', bomb, '--subdomain', subdomain()]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('refused as an archive bomb');
  });
});
