import type { World } from '@confab/devkit';
import { EventQueue, type ClientEvent } from './support/event-queues';
import { expectSuccess } from './support/expect';
import { newWorld } from './support/system';
import { loopbackOutsideAllowList, StubSite } from './support/web-stub';

// Link previews (docs/architecture.md, "Link previews"): fetched by the messaging worker after the send, through the
// guarded client, from pages of a site of the test's own on ALLOWED_TEST_HOST (the test deployment's allow-list).
jest.setTimeout(90_000);

const page = (title: string, image: string, description = 'Description text') => `<!doctype html><html><head>
  <title>Not the og:title</title>
  <meta property="og:title" content="${title}" />
  <meta property="og:description" content="${description}" />
  <meta property="og:image" content="${image}" />
</head><body><h1>Header</h1><p>Body text</p></body></html>`;

const site = new StubSite();
/** A site on a loopback address the allow-list does not cover: a private address, which must never be fetched. */
const privateSite = new StubSite(loopbackOutsideAllowList());
/** Requests for /slow wait here until the test lets them through. */
let releaseSlow: () => void = () => undefined;

let world: World;
let hamlet: EventQueue;

beforeAll(async () => {
  const held = new Promise<void>((resolve) => (releaseSlow = resolve));
  site
    .serve('/rock', 'text/html; charset=utf-8', page('The Rock', '/images/rock.jpg'))
    .serve('/again', 'text/html', page('Again', 'https://cdn.example.org/again.png'))
    .serve('/edited', 'text/html', page('Edited', '/edited.png', 'After the edit'))
    .serve('/on', 'text/html', page('Previews on', '/on.png'))
    .serve('/off', 'text/html', page('Previews off', '/off.png'))
    .serve('/no-image', 'text/html', '<html><head><title>No image</title></head><body><p>Text</p></body></html>')
    .serve('/data.json', 'application/json', `{"html": "${page('JSON', '/json.png').replace(/"/g, '\\"')}"}`)
    .on(
      '/slow',
      (_req, res) =>
        void held.then(() => res.writeHead(200, { 'Content-Type': 'text/html' }).end(page('Slow', '/slow.png'))),
    )
    .on('/moved', (_req, res) => res.writeHead(302, { Location: '/rock' }).end());
  await site.start();
  privateSite.serve('/secret', 'text/html', page('Secret', '/secret.png'));
  await privateSite.start();
  world = await newWorld();
  // Website previews are off by default (Zulip's inline_url_embed_preview); Iago turns them on and sends the messages,
  // so his own requests see the setting applied (read-your-writes).
  expectSuccess(await world.as('iago').patch('/realm', { inline_url_embed_preview: true }), 'PATCH', '/realm', {
    undocumented: true,
  });
  hamlet = await EventQueue.register(world.as('hamlet'), { event_types: ['update_message'] });
});

afterAll(async () => {
  releaseSlow();
  await Promise.all([site.stop(), privateSite.stop()]);
});

const send = async (content: string, topic = 'previews') => {
  const sent = await world.as('iago').post('/messages', { type: 'stream', to: 'Verona', topic, content });
  expectSuccess(sent, 'POST', '/messages');
  return sent.body.id as number;
};

/** Hamlet's rendering-only update of a message: the previews applied. */
const previewed = (id: number) =>
  hamlet.next((e: ClientEvent) => e.type === 'update_message' && e.message_id === id && e.rendering_only === true);

const readBack = async (id: number) => {
  const read = await world.as('hamlet').get('/messages', { anchor: id, num_before: 0, num_after: 0 });
  expectSuccess(read, 'GET', '/messages');
  return (read.body.messages as Record<string, any>[])[0]!;
};

const proxied = (url: string) => `/external_content/[0-9a-f]{40}/${Buffer.from(url).toString('hex')}`;
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Zulip's message_embed of a page, its image through the image proxy. */
const embedPattern = (url: string, title: string, image: string, description = 'Description text') =>
  `<div class="message_embed"><a class="message_embed_image" href="${escape(url)}" ` +
  `style="background-image: url\\(&quot;${proxied(image)}&quot;\\)"></a><div class="data-container">` +
  `<div class="message_embed_title"><a href="${escape(url)}" title="${title}">${title}</a></div>` +
  `<div class="message_embed_description">${description}</div></div></div>`;

describe('link previews', () => {
  it('are fetched after the send, shown in GET /messages and sent as update_message with rendering_only', async () => {
    const url = site.url('/rock');
    const id = await send(`look ${url}`);
    const event = await previewed(id);
    expect(event).toMatchObject({
      type: 'update_message',
      user_id: null,
      rendering_only: true,
      message_id: id,
      message_ids: [id],
      content: `look ${url}`,
      flags: expect.any(Array),
    });
    const html = new RegExp(
      `^<p>look <a href="${escape(url)}">${escape(url)}</a></p>\n${embedPattern(url, 'The Rock', site.url('/images/rock.jpg'))}$`,
    );
    expect(event.rendered_content).toMatch(html);
    const message = await readBack(id);
    expect(message.content).toBe(event.rendered_content);
    // A rendering is no edit: the message is not marked edited.
    expect(message.last_edit_timestamp).toBeUndefined();
    const fetched = site.requestsFor('/rock');
    expect(fetched).toHaveLength(1);
    expect(fetched[0]!.headers['user-agent']).toMatch(/ConfabURLPreview/);
    expect(fetched[0]!.headers.cookie).toBeUndefined();
  });

  it('never hold up the send: it is answered while the page is still loading', async () => {
    const url = site.url('/slow');
    const id = await send(url);
    // The send has been answered; the worker is waiting for the page, which answers only now.
    expect((await readBack(id)).content).not.toContain('message_embed');
    releaseSlow();
    expect((await previewed(id)).rendered_content).toMatch(
      new RegExp(embedPattern(url, 'Slow', site.url('/slow.png'))),
    );
  });

  it('are cached per URL: the same link again is not fetched again', async () => {
    const url = site.url('/rock');
    const id = await send(`once more ${url}`);
    expect((await previewed(id)).rendered_content).toContain('title="The Rock"');
    expect(site.requestsFor('/rock')).toHaveLength(1);
  });

  it('show only HTML pages with an image, follow redirects, and never reach a private address', async () => {
    const secret = privateSite.url('/secret');
    const links = ['/no-image', '/data.json', '/moved', '/again'].map((p) => site.url(p));
    const id = await send([...links, secret].join('\n'));
    const rendered = (await previewed(id)).rendered_content as string;
    // One message, one job: by its update every link was tried. Only /moved (→ /rock) and /again have a preview.
    expect(rendered.match(/class="message_embed"/g)).toHaveLength(2);
    expect(rendered).toMatch(new RegExp(embedPattern(site.url('/moved'), 'The Rock', site.url('/images/rock.jpg'))));
    expect(rendered).toMatch(
      new RegExp(embedPattern(site.url('/again'), 'Again', 'https://cdn.example.org/again.png')),
    );
    expect(site.requestsFor('/data.json')).toHaveLength(1);
    expect(site.requestsFor('/no-image')).toHaveLength(1);
    expect(privateSite.received).toEqual([]);
  });

  it('of an edited message are fetched for its new content', async () => {
    const id = await send('nothing to preview yet');
    const url = site.url('/edited');
    expectSuccess(
      await world.as('iago').patch(`/messages/${id}`, { content: `now ${url}` }),
      'PATCH',
      '/messages/{message_id}',
    );
    const event = await previewed(id);
    expect(event.content).toBe(`now ${url}`);
    expect(event.rendered_content).toMatch(
      new RegExp(embedPattern(url, 'Edited', site.url('/edited.png'), 'After the edit')),
    );
    expect((await readBack(id)).content).toBe(event.rendered_content);
  });

  it('follow the organization’s settings', async () => {
    const iago = world.as('iago');
    const settings = async (embeds: boolean, images: boolean) =>
      expectSuccess(
        await iago.patch('/realm', { inline_url_embed_preview: embeds, inline_image_preview: images }),
        'PATCH',
        '/realm',
        { undocumented: true },
      );
    const image = 'https://img.example.org/cat.png';
    const youtube = 'https://www.youtube.com/watch?v=hx1mjT73xYE';
    await settings(false, false);
    const off = await send(`${site.url('/off')} ${image} ${youtube}`, 'settings');
    const offHtml = (await readBack(off)).content as string;
    expect(offHtml).not.toMatch(/message_inline_image|youtube-video|message_embed/);

    // Image previews need no fetch: the inline image and the YouTube thumbnail are in the message as sent. (With
    // website previews on, the YouTube page would be fetched too, for its title: not from a test.)
    await settings(false, true);
    const images = (await readBack(await send(`${image} ${youtube}`, 'settings'))).content as string;
    expect(images).toMatch(
      new RegExp(
        `<div class="message_inline_image"><a href="${escape(image)}"><img src="${proxied(image)}"></a></div>`,
      ),
    );
    expect(images).toMatch(
      new RegExp(
        `<div class="youtube-video message_inline_image"><a data-id="hx1mjT73xYE" href="${escape(youtube)}">` +
          `<img src="${proxied('https://i.ytimg.com/vi/hx1mjT73xYE/default.jpg')}"></a></div>`,
      ),
    );

    await settings(true, true);
    const on = await send(site.url('/on'), 'settings');
    expect((await previewed(on)).rendered_content).toContain('title="Previews on"');
    // The message sent while previews were off was never fetched (its job would have come before this one's).
    expect(site.requestsFor('/off')).toEqual([]);
    expect((await readBack(off)).content).toBe(offHtml);
  });
});
