import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GuardedHttpClient } from '@confab/http';
import { fetchedDir, RemoteImages } from '../src/remote';
import { SlackCustomEmoji, slackAvatarUrl } from '../src/sources/slack-images';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

describe("a Slack user's picture (Zulip's build_avatar_url)", () => {
  it.each([
    ['the largest image_* URL', { image_72: 'https://avatars.slack-edge.com/a_72.png', image_512: 'https://avatars.slack-edge.com/a_512.png' }, {}, 'https://avatars.slack-edge.com/a_512.png'],
    ['the avatar hash on ca.slack-edge.com at 512 px', { avatar_hash: '8a1b2c3d4e5f' }, { team_id: 'T1' }, 'https://ca.slack-edge.com/T1-U1-8a1b2c3d4e5f-512'],
    ['none for a Gravatar hash', { avatar_hash: 'g1260bbb9ad8', image_72: 'https://secure.gravatar.com/avatar/x.jpg?s=72' }, { team_id: 'T1' }, null],
    ["none for Slack's stock pictures", { image_72: 'https://a.slack-edge.com/0180/img/slackbot_72.png' }, {}, null],
    ['none when Slack says it is no custom image', { is_custom_image: false, image_512: 'https://avatars.slack-edge.com/a.png' }, {}, null],
    ['none for what is no http(s) URL', { image_512: 'file:///etc/passwd' }, {}, null],
    ['none without any', {}, {}, null],
  ])('%s', (_what, profile, user, expected) => {
    expect(slackAvatarUrl({ id: 'U1', ...user, profile })).toBe(expected);
  });

  it("an integration bot's image_72 only (Zulip's rule)", () => {
    const profile = { image_72: 'https://avatars.slack-edge.com/b_72.png', image_512: 'https://avatars.slack-edge.com/b_512.png' };
    expect(slackAvatarUrl({ id: 'B1', is_integration_bot: true, profile })).toBe('https://avatars.slack-edge.com/b_72.png');
  });
});

describe('images fetched by URL through the guarded client', () => {
  let server: Server;
  let origin: string;
  let work: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/a.png') res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
      else if (req.url === '/slow.png') setTimeout(() => res.writeHead(200).end(PNG), 10_000).unref();
      else if (req.url === '/big.png') res.writeHead(200).end(Buffer.concat([PNG, Buffer.alloc(4096)]));
      else res.writeHead(404).end();
    });
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    const address = server.address();
    origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    work = await mkdtemp(join(tmpdir(), 'confab-porting-'));
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((ok) => server.close(ok));
    await rm(work, { recursive: true, force: true });
  });

  // A second for the slow answer: the others are served at once, even on a loaded machine.
  const limits = { timeoutMs: 1_000, connectTimeoutMs: 1_000, maxBytes: 1024, concurrency: 2 };

  it('keeps the images, reports every failure, and never reaches a private address the allow-list lacks', async () => {
    const allowed = new RemoteImages(new GuardedHttpClient({ allowedCidrs: ['127.0.0.1/32'] }), work, limits);
    const files = await allowed.fetchAll([
      { what: 'a', url: `${origin}/a.png`, name: 'avatars/1' },
      { what: 'slow', url: `${origin}/slow.png`, name: 'avatars/2' },
      { what: 'big', url: `${origin}/big.png`, name: 'avatars/3' },
      { what: 'gone', url: `${origin}/gone.png`, name: 'avatars/4' },
      { what: 'odd', url: 'ftp://example.com/a.png', name: 'avatars/5' },
    ]);
    expect(files).toEqual(['avatars/1.png', null, null, null, null]);
    expect(await readFile(join(fetchedDir(work), 'avatars/1.png'))).toEqual(PNG);
    expect(allowed.failures.map((f) => [f.what, f.reason.split(/[:(]/)[0]!.trim()])).toEqual([
      ['slow', 'timed out'],
      ['big', 'too large'],
      ['gone', 'HTTP 404'],
      ['odd', 'invalid url'],
    ]);

    // The default: loopback is refused before any connection.
    const guarded = new RemoteImages(new GuardedHttpClient(), work, limits);
    expect(await guarded.fetchAll([{ what: 'a', url: `${origin}/a.png`, name: 'avatars/6' }])).toEqual([null]);
    expect(guarded.failures[0]!.reason).toMatch(/^refused: .*loopback/);
  });

  it('custom emoji: fetched ones become realm emoji, aliases name their targets, Unicode first', async () => {
    const remote = new RemoteImages(new GuardedHttpClient({ allowedCidrs: ['127.0.0.1/32'] }), work, limits);
    const custom = await SlackCustomEmoji.fetch(
      {
        partyparrot: `${origin}/a.png`,
        gone: `${origin}/gone.png`,
        parrot: `${origin}/a.png`,
        party_parrot: 'alias:partyparrot',
        thumbsup_all: 'alias:+1',
        gone_too: 'alias:gone',
      },
      remote,
    );
    expect(custom.emoji.map((e) => [e.id, e.name, e.file, e.fetched])).toEqual([
      [1, 'partyparrot', 'emoji/1.png', true],
      [2, 'parrot', 'emoji/3.png', true],
    ]);
    const id = (local: number) => local + 100;
    expect(custom.reaction('partyparrot', id)).toEqual({ emojiName: 'partyparrot', emojiCode: '101', reactionType: 'realm_emoji' });
    expect(custom.reaction('party_parrot', id)).toEqual({ emojiName: 'partyparrot', emojiCode: '101', reactionType: 'realm_emoji' });
    expect(custom.reaction('thumbsup_all', id)).toEqual({ emojiName: '+1', emojiCode: '1f44d', reactionType: 'unicode_emoji' });
    // A custom emoji named as a Unicode one: reactions by that name are the Unicode emoji (Zulip's build_reactions).
    expect(custom.reaction('parrot', id)).toMatchObject({ reactionType: 'unicode_emoji' });
    expect(custom.reaction('gone', id)).toBeUndefined();
    expect(custom.reaction('gone_too', id)).toBeUndefined();
  });
});
