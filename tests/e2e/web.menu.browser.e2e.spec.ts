import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe';
import { eventually, sendToChannel, useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(240_000);

/** Issue 45: a message's "⋯" menu — "Mark as unread from here" and "Quote and reply", as Zulip's. */
describe('the web client: the message menu', () => {
  const env = useBrowserWorld();
  const streamId = async (name: string) =>
    (await env.world.as('othello').get('/get_stream_id', { stream: name })).body.stream_id as number;
  const topicHash = async (channel: string, topic: string) =>
    `#narrow/channel/${await streamId(channel)}-${channel}/topic/${encodeURIComponent(topic).replace(/%/g, '.')}`;
  const flagsOf = async (id: number) => {
    const answer = await env.world.as('cordelia').get(`/messages/${id}`);
    if (answer.status !== 200) throw new Error(`GET /messages/${id}: ${answer.status} ${answer.text}`);
    return answer.body.message.flags as string[];
  };
  /** Whether each of these messages is read for Cordelia, in one request (they are in one topic, in id order). */
  const readOnServer = async (ids: number[]) => {
    const answer = await env.world.as('cordelia').get('/messages', {
      anchor: ids[0],
      num_before: 0,
      num_after: ids.length + 5,
      narrow: JSON.stringify([]),
    });
    if (answer.status !== 200) throw new Error(`GET /messages: ${answer.status} ${answer.text}`);
    const flags = new Map(
      (answer.body.messages as { id: number; flags: string[] }[]).map((m) => [m.id, m.flags.includes('read')]),
    );
    return ids.map((id) => flags.get(id));
  };
  const choose = async (page: Page, id: number, action: string) => {
    const message = page.locator(`.message[data-id="${id}"]`);
    await message.hover();
    await message.locator('button.more').click();
    await message.locator(`.menu [role="menuitem"].${action}`).click();
  };
  const topicCount = (page: Page, topic: string) =>
    page.locator(`[data-topic="${topic}"] .unread`).textContent({ timeout: 8000 });

  it('marks a message and the later ones unread, keeps them unread while the view stays open, and reads them again after', async () => {
    const topic = 'unread from here';
    const line = (n: number) => sendToChannel(env.world, 'othello', 'Verona', topic, `Line ${n}`);
    const [first, second, third, fourth] = [await line(1), await line(2), await line(3), await line(4)];
    const ids = [first, second, third, fourth];
    const { context, page } = await userPage(env.browser, env.origin, 'cordelia@zulip.com');
    // Every request of the page to mark messages read, by id.
    const askedRead: number[] = [];
    page.on('request', (request) => {
      if (!request.url().endsWith('/json/messages/flags') || request.method() !== 'POST') return;
      const body = new URLSearchParams(request.postData() ?? '');
      if (body.get('flag') === 'read' && body.get('op') === 'add')
        askedRead.push(...(JSON.parse(body.get('messages') ?? '[]') as number[]));
    });
    try {
      await page.goto(`${env.origin}/${await topicHash('Verona', topic)}`);
      await page.waitForSelector(`.message[data-id="${fourth}"]`);
      // Opening the topic reads all four.
      await eventually('all four read', async () => (await readOnServer(ids)).every(Boolean));
      await page.locator(`[data-topic="${topic}"] .unread`).waitFor({ state: 'detached' });
      askedRead.length = 0;

      await choose(page, second, 'mark-unread');
      // The topic counts three unread at once, and the view says it no longer reads them.
      expect(await topicCount(page, topic)).toBe('3');
      expect(await page.locator('.reading-paused').textContent()).toContain('stay unread until you leave');
      expect(await seriousViolations(page)).toEqual([]);
      await eventually('unread from the second on, on the server', async () => {
        const read = await readOnServer(ids);
        return read.join() === 'true,false,false,false';
      });
      // A new message comes into the open view: it shows, and it stays unread with the others (the view, re-rendered
      // by it, asks to read nothing).
      const later = await line(5);
      await page.waitForSelector(`.message[data-id="${later}"]`);
      await page.waitForFunction(
        (t) => document.querySelector(`[data-topic="${t}"] .unread`)?.textContent === '4',
        topic,
        { timeout: 8000 },
      );
      expect(askedRead).toEqual([]);
      expect(await readOnServer([...ids, later])).toEqual([true, false, false, false, false]);

      // The Inbox counts them too.
      await page.goto(`${env.origin}/#inbox`);
      await page.locator(`[data-inbox-topic="${topic}"] .unread`).waitFor();
      expect(await page.locator(`[data-inbox-topic="${topic}"] .unread`).textContent()).toBe('4');
      expect(askedRead).toEqual([]);

      // Coming back to the topic (the view left and opened again) reads them.
      await page.goto(`${env.origin}/${await topicHash('Verona', topic)}`);
      await page.waitForSelector(`.message[data-id="${later}"]`);
      await page.locator(`[data-topic="${topic}"] .unread`).waitFor({ state: 'detached', timeout: 8000 });
      await eventually('read again', async () => (await readOnServer([...ids, later])).every(Boolean));
      expect(await page.locator('.reading-paused').count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('takes back the unread counts and says so when the server refuses', async () => {
    const topic = 'unread refused';
    const id = await sendToChannel(env.world, 'othello', 'Verona', topic, 'Refused line');
    const { context, page } = await userPage(env.browser, env.origin, 'cordelia@zulip.com');
    try {
      await page.goto(`${env.origin}/${await topicHash('Verona', topic)}`);
      await page.waitForSelector(`.message[data-id="${id}"]`);
      await eventually('read', async () => (await flagsOf(id)).includes('read'));
      await page.route('**/json/messages/flags', (route) =>
        (route.request().postData() ?? '').includes('op=remove')
          ? route.fulfill({
              status: 400,
              contentType: 'application/json',
              body: JSON.stringify({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid message(s)' }),
            })
          : route.continue(),
      );
      await choose(page, id, 'mark-unread');
      expect(await page.locator('.messages-pane [role="alert"]').textContent()).toBe(
        'Could not mark as unread: Invalid message(s)',
      );
      await page.locator(`[data-topic="${topic}"] .unread`).waitFor({ state: 'detached' });
      expect(await flagsOf(id)).toContain('read');
    } finally {
      await context.close();
    }
  });

  it('quotes a message into the compose box of its conversation, from its topic or from the combined feed', async () => {
    const othello = env.world.user('othello');
    const cordelia = env.world.user('cordelia');
    const topic = 'quoting';
    const source = 'We **meet** at noon:\n```\nroom 2\n```';
    const id = await sendToChannel(env.world, 'othello', 'Verona', topic, source);
    const { context, page } = await userPage(env.browser, env.origin, 'cordelia@zulip.com');
    const expected = (link: string) =>
      `@_**${othello.fullName}|${othello.id}** [said](${link}) in #**Verona>${topic}**:\n` +
      `\`\`\`\`quote\n${source}\n\`\`\`\`\n`;
    const link = `${env.origin}/${await topicHash('Verona', topic)}/near/${id}`;
    try {
      // In the topic itself: the quote goes into its compose box, focused at the end.
      await page.goto(`${env.origin}/${await topicHash('Verona', topic)}`);
      await page.waitForSelector(`.message[data-id="${id}"]`);
      await choose(page, id, 'quote');
      await page.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('#compose-content')?.value);
      expect(await page.inputValue('#compose-content')).toBe(expected(link));
      const caret = await page.evaluate(() => {
        const el = document.activeElement as HTMLTextAreaElement;
        return { id: el.id, at: el.selectionStart, length: el.value.length };
      });
      expect(caret).toEqual({ id: 'compose-content', at: caret.length, length: expected(link).length });
      await page.fill('#compose-content', '');

      // From the combined feed, which has no compose box: the message's topic opens with the quote in its box.
      await page.goto(`${env.origin}/#feed`);
      await page.waitForSelector(`.message[data-id="${id}"]`);
      await choose(page, id, 'quote');
      await page.waitForFunction(() =>
        document.querySelector<HTMLTextAreaElement>('#compose-content')?.value.includes('```quote'),
      );
      expect(page.url()).toContain(await topicHash('Verona', topic));
      expect(await page.inputValue('#compose-topic')).toBe(topic);
      expect(await page.inputValue('#compose-content')).toBe(expected(link));
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('compose-content');
      // Typing continues after the quote; sent, it is Zulip's quote of the message.
      await page.keyboard.type('Noon works.');
      await page.click('#compose-send');
      const sent = await eventually<{ id: number; content: string }>('the reply', async () => {
        const answer = await env.world.as('cordelia').get('/messages', {
          anchor: 'newest',
          num_before: 1,
          num_after: 0,
          narrow: JSON.stringify([{ operator: 'sender', operand: cordelia.id }]),
          apply_markdown: false,
        });
        const [m] = answer.body.messages as { id: number; content: string }[];
        return m && m.id > id ? m : undefined;
      });
      expect(sent.content).toBe(`${expected(link)}Noon works.`);
      const shown = page.locator(`.message[data-id="${sent.id}"] blockquote`);
      await shown.waitFor();
      expect(await shown.textContent()).toContain('room 2');
    } finally {
      await context.close();
    }
  });

  it('quotes a direct message with the people it was said to', async () => {
    const othello = env.world.user('othello');
    const cordelia = env.world.user('cordelia');
    const sent = await env.world
      .as('othello')
      .post('/messages', { type: 'private', to: JSON.stringify([cordelia.id]), content: 'A private word' });
    expect(sent.status).toBe(200);
    const id = sent.body.id as number;
    const { context, page } = await userPage(env.browser, env.origin, 'cordelia@zulip.com');
    try {
      await page.click(`[data-user="${othello.email}"]`);
      await page.waitForSelector(`.message[data-id="${id}"]`);
      await choose(page, id, 'quote');
      await page.waitForFunction(() => document.querySelector<HTMLTextAreaElement>('#compose-content')?.value);
      const text = await page.inputValue('#compose-content');
      expect(text).toMatch(
        new RegExp(
          `^@_\\*\\*${othello.fullName}\\|${othello.id}\\*\\* \\[said\\]\\(${env.origin}/#narrow/dm/[^)]*/near/${id}\\) ` +
            `to @_\\*\\*${cordelia.fullName}\\|${cordelia.id}\\*\\*:\\n\`\`\`quote\\nA private word\\n\`\`\`\\n$`,
        ),
      );
    } finally {
      await context.close();
    }
  });
});
