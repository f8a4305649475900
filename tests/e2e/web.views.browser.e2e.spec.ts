import type { World } from '@confab/devkit';
import type { Browser, Page } from 'playwright-core';
import { browserWorld, eventually, userPage } from './support/browser';

jest.setTimeout(240_000);

/** Views: Inbox, Recent conversations, Combined feed, Mentions, Starred, Drafts, Scheduled; marking read. */
describe('the web client: views', () => {
  let world: World;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    ({ world, browser, origin } = await browserWorld());
  });
  afterAll(async () => {
    await browser?.close();
  });

  const send = async (to: string, topic: string, content: string) => {
    const sent = await world.as('othello').post('/messages', { type: 'stream', to, topic, content });
    expect(sent.status).toBe(200);
    return sent.body.id as number;
  };
  const unreadOf = async (email: string, ids: number[]) => {
    const user = email.split('@')[0] as 'hamlet';
    const flags = await Promise.all(ids.map(async (id) => (await world.as(user).get(`/messages/${id}`)).body.message.flags as string[]));
    return flags.filter((f) => !f.includes('read')).length;
  };
  const title = (page: Page, text: string) =>
    page.waitForFunction((t) => document.querySelector('#narrow-title')?.textContent === t, text);

  it('lists unread conversations in the Inbox, live, and marks a topic, a channel, or everything read', async () => {
    const { context, page } = await userPage(browser, origin, 'hamlet@zulip.com');
    try {
      expect(await page.textContent('#narrow-title')).toBe('Inbox');
      const a = [await send('Denmark', 'ghosts', 'one'), await send('Denmark', 'ghosts', 'two')];
      const b = [await send('Denmark', 'graves', 'three')];
      const c: number[] = [];
      for (let i = 0; i < 40; i++) c.push(await send('Verona', 'feud', `line ${i}`));
      const dm = (await world.as('othello').post('/messages', { type: 'direct', to: JSON.stringify([world.user('hamlet').id]), content: 'A word' })).body
        .id as number;
      await page.waitForSelector('[data-inbox-channel="Denmark"] [data-inbox-topic="ghosts"] .unread >> text=2');
      await page.waitForSelector('[data-inbox-channel="Verona"] h3 .unread >> text=40');
      await page.waitForSelector(`[data-dm="${world.user('othello').id}"] .unread >> text=1`);

      await page.click('[data-inbox-topic="ghosts"] button.mark-topic-read');
      await page.waitForSelector('[data-inbox-topic="ghosts"]', { state: 'detached' });
      expect(await unreadOf('hamlet@zulip.com', [...a, ...b])).toBe(1);
      // A channel's forty unread messages go in one action.
      await page.click('[data-inbox-channel="Verona"] button.mark-channel-read');
      await page.waitForSelector('[data-inbox-channel="Verona"]', { state: 'detached' });
      expect(await unreadOf('hamlet@zulip.com', c)).toBe(0);
      expect(await page.locator('[data-stream="Verona"] .unread').count()).toBe(0);

      await page.click('#mark-all-read');
      await page.waitForSelector('.inbox .empty >> text=You have no unread messages.');
      expect(await unreadOf('hamlet@zulip.com', [...b, dm])).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('drops a deleted unread message from the counts at once', async () => {
    const { context, page } = await userPage(browser, origin, 'hamlet@zulip.com');
    try {
      const id = await send('Denmark', 'rumours', 'A rumour');
      await page.waitForSelector('[data-stream="Denmark"] .unread >> text=1');
      expect((await world.as('othello').delete(`/messages/${id}`)).status).toBe(200);
      await page.waitForSelector('[data-stream="Denmark"] .unread', { state: 'detached' });
      expect(await page.locator('[data-inbox-topic="rumours"]').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('shows recent conversations, the combined feed, mentions and starred messages, updating live', async () => {
    const { context, page } = await userPage(browser, origin, 'cordelia@zulip.com');
    try {
      const first = await send('Verona', 'masks', 'Who is that?');
      await send('Denmark', 'skulls', 'Alas');
      await page.click('[data-view="recent"]');
      await title(page, 'Recent conversations');
      await page.waitForSelector('.recent-row[data-conversation="#Denmark > skulls"]');
      const order = () => page.locator('.recent-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-conversation')));
      expect((await order()).slice(0, 2)).toEqual(['#Denmark > skulls', '#Verona > masks']);
      await send('Verona', 'masks', 'A Montague');
      await eventually('masks to move up', async () => (await order())[0] === '#Verona > masks');
      await page.click('.recent-row[data-conversation="#Verona > masks"] a');
      await title(page, '#Verona > masks');

      // Combined feed: every channel's messages, new ones as they come.
      await page.click('[data-view="feed"]');
      await title(page, 'Combined feed');
      expect(new URL(page.url()).hash).toBe('#feed');
      await page.waitForSelector(`.message[data-id="${first}"]`);
      const live = await send('Denmark', 'skulls', 'I knew him');
      await page.waitForSelector(`.message[data-id="${live}"] .recipient-bar .channel-link >> text=#Denmark`);

      // Mentions: a message that mentions me appears there, live.
      await page.click('[data-view="mentions"]');
      await title(page, 'Mentions');
      const mention = await send('Verona', 'masks', `@**${world.user('cordelia').fullName}** look`);
      await page.waitForSelector(`.message[data-id="${mention}"]`);
      expect(await page.locator(`.message[data-id="${first}"]`).count()).toBe(0);

      // Starred: starring a message in a conversation puts it there.
      await page.goto(`${origin}/#feed`);
      await page.waitForSelector(`.message[data-id="${first}"]`);
      await page.click(`.message[data-id="${first}"] button.star`);
      await page.waitForSelector(`.message[data-id="${first}"] button.star[aria-pressed="true"]`);
      await page.click('[data-view="starred"]');
      await title(page, 'Starred messages');
      await page.waitForSelector(`.message[data-id="${first}"]`);
      expect(await page.locator('.message').count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('lists drafts and scheduled messages, which can be opened, deleted or cancelled', async () => {
    const { context, page } = await userPage(browser, origin, 'prospero@zulip.com');
    const prospero = world.as('prospero');
    try {
      const denmark = (await prospero.get('/get_stream_id', { stream: 'Denmark' })).body.stream_id as number;
      const draft = await prospero.post('/drafts', {
        drafts: JSON.stringify([{ type: 'stream', to: [denmark], topic: 'tempest', content: 'Our revels now are ended', timestamp: Math.floor(Date.now() / 1000) }]),
      });
      expect(draft.status).toBe(200);
      await page.click('[data-view="drafts"]');
      await title(page, 'Drafts');
      const row = page.locator('.draft-row', { hasText: 'Our revels now are ended' });
      await row.waitFor();
      await row.locator('a').click();
      await title(page, '#Denmark > tempest');
      await page.waitForFunction(() => (document.querySelector('#compose-content') as HTMLTextAreaElement | null)?.value === 'Our revels now are ended');
      await page.goBack();
      await title(page, 'Drafts');
      await page.locator('.draft-row', { hasText: 'Our revels now are ended' }).locator('button.delete-draft').click();
      await page.locator('.draft-row', { hasText: 'Our revels now are ended' }).waitFor({ state: 'detached' });
      expect((await prospero.get('/drafts')).body.drafts).toEqual([]);

      const scheduled = await prospero.post('/scheduled_messages', {
        type: 'stream',
        to: denmark,
        topic: 'tempest',
        content: 'We are such stuff as dreams are made on',
        scheduled_delivery_timestamp: Math.floor(Date.now() / 1000) + 3600,
      });
      expect(scheduled.status).toBe(200);
      await page.click('[data-view="scheduled"]');
      await title(page, 'Scheduled messages');
      const item = page.locator('.scheduled-row', { hasText: 'dreams are made on' });
      await item.waitFor();
      expect(await item.textContent()).toContain('#Denmark > tempest');
      await item.locator('button.cancel').click();
      await item.waitFor({ state: 'detached' });
      expect((await prospero.get('/scheduled_messages')).body.scheduled_messages).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
