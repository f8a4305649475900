import type { ApiClient, World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';
import { extraAccounts } from './support/world-facts';

describe('POST /messages/render', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it("renders Zulip-flavoured Markdown with the organization's users and channels", async () => {
    const bold = await world.as('hamlet').post('/messages/render', { content: '**foo**' });
    expectSuccess(bold, 'POST', '/messages/render');
    expect(bold.body.rendered).toBe('<p><strong>foo</strong></p>');
    const verona = (await world.as('hamlet').get('/get_stream_id', { stream: 'Verona' })).body.stream_id;
    const rich = await world.as('hamlet').post('/messages/render', {
      content: '@**Othello, the Moor of Venice** see #**Verona>plans** :octopus: <b>x</b>',
    });
    expect(rich.body.rendered).toBe(
      `<p><span class="user-mention" data-user-id="${world.user('othello').id}">@Othello, the Moor of Venice</span> see ` +
        `<a class="stream-topic" data-stream-id="${verona}" href="/#narrow/channel/${verona}-Verona/topic/plans">#Verona &gt; plans</a> ` +
        '<span aria-label="octopus" class="emoji emoji-1f419" role="img" title="octopus">:octopus:</span> &lt;b&gt;x&lt;/b&gt;</p>',
    );
  });

  it('requires content', async () => {
    expectError(
      await world.as('hamlet').post('/messages/render', {}),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'content' argument",
    );
  });
});

describe('POST /messages with mentions', () => {
  let world: World;
  let hamlet: ApiClient;
  beforeAll(async () => {
    world = await newWorld();
    hamlet = world.as('hamlet');
  });

  const flagsFor = async (client: ApiClient, id: number) =>
    (await client.get(`/messages/${id}`)).body.message.flags as string[];

  it('renders mentions into rendered_content and flags the mentioned users', async () => {
    const sent = await hamlet.post('/messages', {
      type: 'stream',
      to: 'Verona',
      topic: 'mentions',
      content: 'hi @**Othello, the Moor of Venice** and @_**Iago**',
    });
    expectSuccess(sent, 'POST', '/messages');
    const othello = await world.as('othello').get(`/messages/${sent.body.id}`);
    expect(othello.body.message.content).toContain(
      `<span class="user-mention" data-user-id="${world.user('othello').id}">@Othello, the Moor of Venice</span>`,
    );
    expect(othello.body.message.flags).toEqual(['mentioned']);
    // Silent mentions do not notify.
    expect(await flagsFor(world.as('iago'), sent.body.id)).toEqual([]);
  });

  it('flags everyone for a channel wildcard in a small channel', async () => {
    const sent = await hamlet.post('/messages', {
      type: 'stream',
      to: 'Verona',
      topic: 'mentions',
      content: 'attention @**all**',
    });
    expectSuccess(sent, 'POST', '/messages');
    expect(await flagsFor(world.as('polonius'), sent.body.id)).toEqual([
      'stream_wildcard_mentioned',
      'wildcard_mentioned',
    ]);
  });

  describe('in a channel with more than 15 subscribers', () => {
    let extras: { id: number; client: ApiClient }[];
    beforeAll(async () => {
      extras = await extraAccounts(world, 7);
      const crowd = await world.as('iago').post('/users/me/subscriptions', {
        subscriptions: [{ name: 'crowd' }],
        principals: [...Object.values(world.users).map((u) => u.id), ...extras.map((e) => e.id)].filter(
          (id) => id !== world.user('polonius').id,
        ),
      });
      expectSuccess(crowd, 'POST', '/users/me/subscriptions');
    });

    it('refuses channel wildcards to members and allows them to administrators', async () => {
      const refused = await hamlet.post('/messages', {
        type: 'stream',
        to: 'crowd',
        topic: 't',
        content: '@**everyone** look',
      });
      expectError(
        refused,
        400,
        'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
        'You do not have permission to use channel wildcard mentions in this channel.',
      );
      expectSuccess(
        await world
          .as('iago')
          .post('/messages', { type: 'stream', to: 'crowd', topic: 't', content: '@**everyone** look' }),
        'POST',
        '/messages',
      );
      // Topic wildcards only count the topic's participants.
      expectSuccess(
        await hamlet.post('/messages', {
          type: 'stream',
          to: 'crowd',
          topic: 'small talk',
          content: '@**topic** look',
        }),
        'POST',
        '/messages',
      );
    });

    it('refuses topic wildcards in topics with more than 15 participants', async () => {
      const senders = [
        ...Object.keys(world.users)
          .filter((n) => n !== 'polonius')
          .map((n) => world.as(n as never)),
        ...extras.map((e) => e.client),
      ];
      for (const sender of senders)
        await sender.post('/messages', { type: 'stream', to: 'crowd', topic: 'busy', content: 'here' });
      const refused = await hamlet.post('/messages', {
        type: 'stream',
        to: 'crowd',
        topic: 'busy',
        content: '@**topic** look',
      });
      expectError(
        refused,
        400,
        'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
        'You do not have permission to use topic wildcard mentions in this topic.',
      );
      const allowed = await world
        .as('iago')
        .post('/messages', { type: 'stream', to: 'crowd', topic: 'busy', content: '@**topic** look' });
      expectSuccess(allowed, 'POST', '/messages');
      expect(await flagsFor(hamlet, allowed.body.id)).toEqual(['topic_wildcard_mentioned', 'wildcard_mentioned']);
    });
  });
});

describe('inline image previews', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });
  const image = 'https://images.example.org/logo (1).png';

  it('renders a preview that shows the image through the image proxy, as Zulip does with camo', async () => {
    const response = await world
      .as('hamlet')
      .post('/messages/render', { content: `look ${image.replace(' ', '%20')}` });
    expectSuccess(response, 'POST', '/messages/render');
    const href = 'https://images.example.org/logo%20(1).png';
    const hex = Buffer.from(href).toString('hex');
    expect(response.body.rendered).toMatch(
      new RegExp(
        `<div class="message_inline_image"><a href="${href.replace(/[()]/g, '\\$&')}">` +
          `<img src="/external_content/[0-9a-f]{40}/${hex}"></a></div>`,
      ),
    );
  });
});
