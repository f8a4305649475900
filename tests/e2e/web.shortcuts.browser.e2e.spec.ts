import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe';
import { eventually, registeredState, sendToChannel, useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(240_000);

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** Issue 45: more of Zulip's keyboard shortcuts (help/keyboard-shortcuts.md), by key presses alone. */
describe('the web client: more keyboard shortcuts', () => {
  const env = useBrowserWorld();
  const focused = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
  /** Waits for the heading to say `text`; a failure says what the page shows instead. */
  const waitForTitle = async (page: Page, text: string) => {
    try {
      await page.waitForFunction((t) => document.querySelector('#narrow-title')?.textContent === t, text, {
        timeout: 15_000,
      });
    } catch {
      const shown = await page.textContent('#narrow-title');
      throw new Error(
        `expected the view "${text}", the page shows "${shown}" at ${page.url()}, focus on "${await focused(page)}"`,
      );
    }
  };

  it('goes to views with Shift+I, t, a, *, d; to unread followed topics with Shift+N, unread DMs with p', async () => {
    const hamlet = env.world.as('hamlet');
    expect((await hamlet.post('/mark_all_as_read')).status).toBe(200);
    const denmark = (await hamlet.get('/get_stream_id', { stream: 'Denmark' })).body.stream_id as number;
    const verona = (await hamlet.get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
    const followed = await sendToChannel(env.world, 'othello', 'Denmark', 'followed plot', 'A followed word');
    expect(
      (await hamlet.post('/user_topics', { stream_id: denmark, topic: 'followed plot', visibility_policy: 3 })).status,
    ).toBe(200);
    // Hamlet's own read of it waits for the change to apply (read-your-writes): the page signs in after it.
    const topics = (await registeredState(env.world, 'hamlet', ['user_topic'])).user_topics as {
      topic_name: string;
    }[];
    expect(topics.map((t) => t.topic_name)).toContain('followed plot');
    await sendToChannel(env.world, 'othello', 'Denmark', 'another plot', 'An unfollowed word');
    const dm = await env.world
      .as('othello')
      .post('/messages', { type: 'direct', to: [env.world.user('hamlet').id], content: 'A private word' });
    expect(dm.status).toBe(200);
    // A starred message of its own (the Starred view marks what it shows as read).
    const starred = await sendToChannel(env.world, 'othello', 'Verona', 'stars', 'A starred word');
    expect((await hamlet.post('/mark_topic_as_read', { stream_id: verona, topic_name: 'stars' })).status).toBe(200);
    expect(
      (await hamlet.post('/messages/flags', { messages: JSON.stringify([starred]), op: 'add', flag: 'starred' }))
        .status,
    ).toBe(200);

    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      await waitForTitle(page, 'Inbox');
      await page.keyboard.press('t');
      await waitForTitle(page, 'Recent conversations');
      await page.keyboard.press('*');
      await waitForTitle(page, 'Starred messages');
      await page.locator(`.message[data-id="${starred}"]`).waitFor();
      await page.keyboard.press('d');
      await waitForTitle(page, 'Drafts');
      // d again: back where one was.
      await page.keyboard.press('d');
      await waitForTitle(page, 'Starred messages');
      await page.keyboard.press('Shift+I');
      await waitForTitle(page, 'Inbox');

      // Shift+N: the followed topic, not the other unread one.
      await page.keyboard.press('Shift+N');
      await waitForTitle(page, '#Denmark > followed plot');
      // p: the unread direct message.
      await page.keyboard.press('p');
      await waitForTitle(page, 'Othello, the Moor of Venice');
      await page.locator('.message .content >> text=A private word').waitFor();
      expect(page.url()).toContain('#narrow/dm/');
      // a: the Combined feed (last: it marks what it shows as read).
      await page.keyboard.press('a');
      await waitForTitle(page, 'Combined feed');
      await page.locator('.message .content >> text=An unfollowed word').waitFor();

      // Ctrl+K: the search box.
      await page.keyboard.press('Control+k');
      await eventually('the search box to have focus', async () => (await focused(page)) === 'search');
      await page.keyboard.press('Escape');

      // ? lists them, in groups, and passes axe.
      await page.keyboard.press('?');
      const help = page.locator('.shortcut-help[role="dialog"]');
      await help.waitFor();
      const keys = await help.locator('kbd').allTextContents();
      for (const k of ['Shift+N', 'p', 'Shift+I', 't', 'a', '*', 'd', 's', 'Shift+R', 'v', '/ or Ctrl+K', 'q', 'w'])
        expect(keys).toContain(k);
      expect(await help.locator('h3').allTextContents()).toEqual([
        'The basics',
        'Navigation',
        'Search',
        'Message actions',
      ]);
      expect(await seriousViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await help.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });

  it('goes from the selected message to its topic or channel with s, replies to its sender with Shift+R, shows its image with v', async () => {
    const uploaded = await env.world
      .as('othello')
      .post(
        '/api/v1/user_uploads',
        {},
        { files: [{ field: 'file', filename: 'ghost.png', contentType: 'image/png', data: PNG }] },
      );
    expect(uploaded.status).toBe(200);
    const first = await sendToChannel(env.world, 'othello', 'Verona', 'battlements', 'Who is there?');
    const image = await sendToChannel(
      env.world,
      'othello',
      'Verona',
      'battlements',
      `[ghost.png](${uploaded.body.url as string})`,
    );
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    const selected = () =>
      page.evaluate(() => Number(document.querySelector('.message.selected')?.getAttribute('data-id') ?? 0));
    try {
      // In the channel's feed: s goes to the selected message's topic, s again to the channel.
      await page.click('[data-stream="Verona"]');
      await waitForTitle(page, '#Verona');
      await page.locator(`.message[data-id="${image}"] .message_inline_image img`).waitFor();
      await page.locator('.messages').focus();
      await page.keyboard.press('Escape');
      await page.keyboard.press('j');
      expect(await selected()).toBe(image);
      await page.keyboard.press('s');
      await waitForTitle(page, '#Verona > battlements');
      await page.keyboard.press('s');
      await waitForTitle(page, '#Verona');

      // v: the selected message's image, enlarged; Esc closes it.
      await page.goto(`${env.origin}/#narrow/channel/Verona/topic/battlements`);
      await page.locator(`.message[data-id="${image}"] .message_inline_image img`).waitFor();
      await page.keyboard.press('j');
      expect(await selected()).toBe(image);
      await page.keyboard.press('v');
      await page.getByRole('dialog', { name: 'ghost.png' }).waitFor();
      await page.keyboard.press('Escape');
      await page.locator('.lightbox').waitFor({ state: 'detached' });

      // Shift+R: a direct message to the sender of the selected message, its compose box focused.
      await page.keyboard.press('k');
      expect(await selected()).toBe(first);
      await page.keyboard.press('Shift+R');
      await waitForTitle(page, 'Othello, the Moor of Venice');
      await eventually('the compose box to have focus', async () => (await focused(page)) === 'compose-content');
      await page.keyboard.type('Speak to it, Horatio');
      await page.keyboard.press('Control+Enter');
      await page.locator('.message .content >> text=Speak to it, Horatio').waitFor();
      const sent = (
        await env.world.as('othello').get('/messages', {
          anchor: 'newest',
          num_before: 1,
          num_after: 0,
          narrow: JSON.stringify([{ operator: 'dm', operand: [env.world.user('hamlet').id] }]),
          apply_markdown: false,
        })
      ).body.messages[0] as { content: string; type: string };
      expect([sent.type, sent.content]).toEqual(['private', 'Speak to it, Horatio']);
    } finally {
      await context.close();
    }
  });
});
