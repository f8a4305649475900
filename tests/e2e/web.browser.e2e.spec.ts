import { existsSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { DEV_PASSWORD, type World } from '@confab/devkit';
import { chromium, type Browser, type Page } from 'playwright-core';
import { messageAction, openSendLater, SCREENSHOTS } from './support/browser';
import { newWorld } from './support/system';

jest.setTimeout(120_000);

/** Debian's chromium package (scripts/confab.mjs installs it for `npm test`). */
const CHROMIUM = process.env.CONFAB_CHROMIUM ?? '/usr/bin/chromium';

describe('the web client in a real browser', () => {
  let world: World;
  let browser: Browser;
  let origin: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium`);
    world = await newWorld();
    const client = world.anonymous();
    origin = `http://${client.options.host ?? new URL(client.baseUrl).host}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--host-resolver-rules=MAP *.localhost 127.0.0.1'],
    });
  });
  afterAll(async () => {
    await browser?.close();
  });

  async function signIn(page: Page, email: string): Promise<void> {
    await page.goto(`${origin}/`);
    await page.fill('#email', email);
    await page.fill('#password', DEV_PASSWORD);
    await page.click('#signin');
    await page.waitForSelector('#narrow-title');
  }

  it('refuses a wrong password on the sign-in form, and makes no request to another host', async () => {
    const page = await browser.newPage();
    const hosts = new Set<string>();
    page.on('request', (r) => hosts.add(new URL(r.url()).host));
    try {
      const opened = await page.goto(`${origin}/`);
      expect(opened?.status()).toBe(200);
      expect(opened?.headers()['content-security-policy']).toContain("default-src 'self'");
      await page.fill('#email', 'hamlet@zulip.com');
      await page.fill('#password', 'wrong');
      await page.click('#signin');
      expect(await page.textContent('[role="alert"]')).toBe('Your username or password is incorrect');
      await page.screenshot({ path: join(SCREENSHOTS, 'sign-in.png') });
      expect([...hosts]).toEqual([new URL(origin).host]);
    } finally {
      await page.close();
    }
  });

  it('signs in, shows channels with unread counts that update live, sends and marks read, signs out', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 700 } });
    const page = await context.newPage();
    try {
      await signIn(page, 'hamlet@zulip.com');
      await page.click('[data-stream="Verona"]');
      expect(await page.textContent('#narrow-title')).toBe('#Verona');

      // Someone else writes in another channel: its unread count appears without reloading.
      const sent = await world
        .as('othello')
        .post('/messages', { type: 'stream', to: 'Denmark', topic: 'castle', content: 'Who goes there?' });
      expect(sent.status).toBe(200);
      await page.waitForSelector('[data-stream="Denmark"] .unread');
      expect(await page.textContent('[data-stream="Denmark"] .unread')).toBe('1');

      // Opening it shows the message and marks it read (read back through the API).
      await page.click('[data-stream="Denmark"]');
      await page.waitForSelector(`.message[data-id="${sent.body.id}"]`);
      expect(await page.textContent(`.message[data-id="${sent.body.id}"] .content`)).toBe('Who goes there?');
      await page.waitForSelector('[data-stream="Denmark"] .unread', { state: 'detached' });
      const flags = await world.as('hamlet').get(`/messages/${sent.body.id}`);
      expect(flags.body.message.flags).toContain('read');

      // Compose: the message comes back through the event queue.
      await page.fill('#compose-topic', 'castle');
      await page.fill('#compose-content', 'Nay, answer me: stand, and **unfold** yourself.');
      await page.click('#compose-send');
      await page.waitForSelector('.message strong >> text=unfold');
      expect(await page.inputValue('#compose-content')).toBe('');
      await page.screenshot({ path: join(SCREENSHOTS, 'channel.png') });

      await page.click('#signout');
      await page.waitForSelector('#signin');
      const me = await page.evaluate(async () => (await fetch('/json/users/me')).status);
      expect(me).toBe(401);
    } finally {
      await context.close();
    }
  });

  it('previews through the server, shows typing, reacts and deletes, all live', async () => {
    const page = await browser.newPage();
    try {
      await signIn(page, 'iago@zulip.com');
      await page.click('[data-stream="Scotland"]');
      await page.fill('#compose-topic', 'moors');
      await page.fill('#compose-content', 'Thrice **the** brinded cat hath mewed.');
      // Writing sends typing notifications others see.
      const othello = world.as('othello');
      const stream = (await othello.get('/get_stream_id', { stream: 'Scotland' })).body.stream_id as number;
      expect(
        (await othello.post('/typing', { type: 'stream', stream_id: stream, topic: 'moors', op: 'start' })).status,
      ).toBe(200);
      await page.waitForSelector('.typing >> text=Othello, the Moor of Venice is typing…');
      await othello.post('/typing', { type: 'stream', stream_id: stream, topic: 'moors', op: 'stop' });
      await page.waitForFunction(() => document.querySelector('.typing')?.textContent === '');

      // @-mention autocomplete: suggestions as one types, completed to Zulip's mention syntax.
      await page.fill('#compose-content', 'Thrice **the** brinded cat hath mewed, @Ot');
      await page.press('#compose-content', 'h');
      await page.waitForSelector('#compose-mentions [role=option] >> text=Othello, the Moor of Venice');
      await page.press('#compose-content', 'Tab');
      expect(await page.inputValue('#compose-content')).toBe(
        'Thrice **the** brinded cat hath mewed, @**Othello, the Moor of Venice** ',
      );
      // The completion puts the caret after the mention in the next animation frame; filling before that frame
      // would have the caret collapse the selection that fill replaces.
      await page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
      await page.fill('#compose-content', 'Thrice **the** brinded cat hath mewed.');
      await page.click('#compose-preview-button');
      expect(await page.innerHTML('#compose-preview')).toBe(
        '<p>Thrice <strong>the</strong> brinded cat hath mewed.</p>',
      );
      await page.click('#compose-send');
      const mine = page.locator('.message', { hasText: 'brinded cat' });
      await mine.waitFor();
      const id = Number(await mine.getAttribute('data-id'));

      // A reaction from someone else arrives live; mine toggles through the API.
      await othello.post(`/messages/${id}/reactions`, { emoji_name: '+1' });
      await page.waitForSelector(`.message[data-id="${id}"] .reaction >> text=👍 1`);
      await page.click(`.message[data-id="${id}"] button.react`);
      await page.waitForSelector(`.message[data-id="${id}"] .reaction.mine >> text=👍 2`);
      const reactions = (await othello.get(`/messages/${id}`)).body.message.reactions as { user_id: number }[];
      expect(reactions.map((r) => r.user_id).sort()).toEqual([world.user('iago').id, world.user('othello').id].sort());

      page.once('dialog', (dialog) => void dialog.accept());
      await messageAction(page, id, 'delete');
      await page.waitForSelector(`.message[data-id="${id}"]`, { state: 'detached' });
      expect((await othello.get(`/messages/${id}`)).status).toBe(400);
    } finally {
      await page.close();
    }
  });

  it("edits and moves one's own message, and shows others' edits live", async () => {
    const page = await browser.newPage();
    try {
      await signIn(page, 'iago@zulip.com');
      await page.click('[data-stream="Rome"]');
      await page.fill('#compose-topic', 'forum');
      await page.fill('#compose-content', 'Friends, Romans, countrymen');
      await page.click('#compose-send');
      const mine = page.locator('.message', { hasText: 'Friends, Romans' });
      await mine.waitFor();
      const id = Number(await mine.getAttribute('data-id'));

      // Edit through the page: the Markdown source comes back into the editor, the server renders the result.
      await messageAction(page, id, 'edit');
      const editor = `.message[data-id="${id}"] textarea.edit-content`;
      await page.waitForSelector(`${editor}:enabled`);
      expect(await page.inputValue(editor)).toBe('Friends, Romans, countrymen');
      await page.fill(`.message[data-id="${id}"] textarea.edit-content`, 'Friends, Romans, **lend me your ears**');
      await page.fill(`.message[data-id="${id}"] input.edit-topic`, 'funeral');
      await page.click(`.message[data-id="${id}"] button.edit-save`);
      await page.waitForSelector(`.message[data-id="${id}"] .content strong >> text=lend me your ears`);
      await page.waitForSelector(`.message[data-id="${id}"] .edited`);
      const othello = world.as('othello');
      const read = (await othello.get(`/messages/${id}`)).body.message as Record<string, unknown>;
      expect(read).toMatchObject({ subject: 'funeral', last_edit_timestamp: expect.any(Number) });
      expect(read.content).toBe('<p>Friends, Romans, <strong>lend me your ears</strong></p>');

      // Moving it to another channel: it leaves this conversation and is found in the other.
      await messageAction(page, id, 'edit');
      await page.waitForSelector(`${editor}:enabled`);
      const scotland = (await othello.get('/get_stream_id', { stream: 'Scotland' })).body.stream_id as number;
      await page.selectOption(`.message[data-id="${id}"] select.edit-channel`, String(scotland));
      await page.click(`.message[data-id="${id}"] button.edit-save`);
      await page.waitForSelector(`.message[data-id="${id}"]`, { state: 'detached' });
      expect((await othello.get(`/messages/${id}`)).body.message).toMatchObject({
        stream_id: scotland,
        subject: 'funeral',
      });
      await page.click('[data-stream="Scotland"]');
      await page.waitForSelector(`.message[data-id="${id}"] .content >> text=lend me your ears`);
      await page.click('[data-stream="Rome"]');

      // Someone else's edit arrives live; refusals from the server are shown as they are.
      const theirs = (
        await othello.post('/messages', { type: 'stream', to: 'Rome', topic: 'funeral', content: 'I come to bury' })
      ).body.id as number;
      await page.waitForSelector(`.message[data-id="${theirs}"]`);
      await othello.patch(`/messages/${theirs}`, { content: 'I come to bury Caesar, not to praise him' });
      await page.waitForSelector(`.message[data-id="${theirs}"] .content >> text=not to praise him`);
      await page.click(`.message[data-id="${theirs}"] button.more`);
      await page.waitForSelector(`.message[data-id="${theirs}"] .menu [role="menuitem"].move`);
      expect(await page.locator(`.message[data-id="${theirs}"] .menu [role="menuitem"].edit`).count()).toBe(0);
    } finally {
      await page.close();
    }
  });

  it('keeps a message that arrives while the history of the conversation being opened is on its way', async () => {
    const page = await browser.newPage();
    try {
      await signIn(page, 'iago@zulip.com');
      const othello = world.as('othello');
      const earlier = (
        await othello.post('/messages', { type: 'stream', to: 'Venice', topic: 'watch', content: 'Who is there?' })
      ).body.id as number;
      // The history answer is computed now, before the next message exists, and handed to the page only after that
      // message has reached the page as an event.
      let deliver: () => void = () => undefined;
      const delivered = new Promise<void>((resolve) => (deliver = resolve));
      let held = false;
      let onHeld: () => void = () => undefined;
      const historyAsked = new Promise<void>((resolve) => (onHeld = resolve));
      await page.route(/\/json\/messages\?/, async (route) => {
        if (held || route.request().method() !== 'GET') return route.continue();
        held = true;
        const answer = await answerNow(route.request().url(), await route.request().allHeaders());
        onHeld();
        await delivered;
        await route.fulfill(answer);
      });
      await page.click('[data-stream="Venice"]');
      await historyAsked;
      const theirs = (
        await othello.post('/messages', { type: 'stream', to: 'Venice', topic: 'watch', content: 'Nay, answer me' })
      ).body.id as number;
      await page.waitForSelector(`.message[data-id="${theirs}"]`);
      deliver();
      await page.waitForSelector(`.message[data-id="${earlier}"]`);
      expect(await page.locator(`.message[data-id="${theirs}"]`).count()).toBe(1);
      const ids = await page
        .locator('.message')
        .evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('data-id'))));
      expect(ids.indexOf(earlier)).toBeLessThan(ids.indexOf(theirs));
    } finally {
      await page.close();
    }
  });

  it('keeps the draft on the server, restores it after a reload, and sends a message later', async () => {
    const page = await browser.newPage();
    try {
      await signIn(page, 'hamlet@zulip.com');
      await page.click('[data-stream="Venice"]');
      await page.fill('#compose-topic', 'canals');
      await page.fill('#compose-content', 'The gondolas are');
      // Saved on the server as it is written (the API shows it to any client of the user).
      const hamlet = world.as('hamlet');
      const venice = (await hamlet.get('/get_stream_id', { stream: 'Venice' })).body.stream_id as number;
      for (const deadline = Date.now() + 10_000; ;) {
        const drafts = (await hamlet.get('/drafts')).body.drafts as { to: number[]; topic: string; content: string }[];
        if (drafts.some((d) => d.to[0] === venice && d.content === 'The gondolas are' && d.topic === 'canals')) break;
        if (Date.now() > deadline) throw new Error(`draft not saved: ${JSON.stringify(drafts)}`);
        await page.waitForTimeout(100);
      }
      await page.reload();
      await page.click('[data-stream="Venice"]');
      await page.waitForSelector('#compose-content');
      expect(await page.inputValue('#compose-content')).toBe('The gondolas are');
      expect(await page.inputValue('#compose-topic')).toBe('canals');

      // Sending it later: a scheduled message, which arrives at its time, and the draft is gone.
      await page.fill('#compose-content', 'The gondolas are late.');
      const at = new Date(Date.now() + 3000);
      const local = new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 19);
      await openSendLater(page);
      await page.fill('#compose-send-at', local);
      await page.click('#compose-send-later');
      await page.waitForSelector('.notice >> text=Scheduled for');
      expect((await hamlet.get('/scheduled_messages')).body.scheduled_messages).toEqual([
        expect.objectContaining({ content: 'The gondolas are late.', topic: 'canals', to: venice }),
      ]);
      await page.waitForSelector('.message >> text=The gondolas are late.', { timeout: 20_000 });
      expect((await hamlet.get('/drafts')).body.drafts).toEqual([]);

      // One scheduled for much later is listed, and cancelling it removes it on the server.
      await page.fill('#compose-content', 'Carnival starts tomorrow.');
      const later = new Date(Date.now() + 3_600_000);
      await openSendLater(page);
      await page.fill(
        '#compose-send-at',
        new Date(later.getTime() - later.getTimezoneOffset() * 60_000).toISOString().slice(0, 19),
      );
      await page.click('#compose-send-later');
      const item = page.locator('.scheduled li', { hasText: 'Carnival starts tomorrow.' });
      await item.waitFor();
      await item.locator('button.cancel').click();
      await item.waitFor({ state: 'detached' });
      expect((await hamlet.get('/scheduled_messages')).body.scheduled_messages).toEqual([]);
    } finally {
      await page.close();
    }
  });

  it('shows who is online with presence dots, and makes its own user present', async () => {
    const page = await browser.newPage();
    try {
      await signIn(page, 'cordelia@zulip.com');
      // Othello comes online: his dot turns green live; someone never seen stays offline.
      expect((await world.as('othello').post('/users/me/presence', { status: 'active' })).status).toBe(200);
      await page.waitForSelector('[data-user="othello@zulip.com"] .presence.active');
      await page.waitForSelector('[data-user="prospero@zulip.com"] .presence.offline');
      // The page itself pings: Cordelia is present to others.
      for (const deadline = Date.now() + 10_000; ;) {
        const answer = await world.as('othello').get(`/users/${world.user('cordelia').id}/presence`);
        if (answer.status === 200 && answer.body.presence?.aggregated?.status === 'active') break;
        if (Date.now() > deadline) throw new Error(`cordelia not present: ${JSON.stringify(answer.body)}`);
        await page.waitForTimeout(100);
      }
    } finally {
      await page.close();
    }
  });

  it('registers again when the event queue is gone (BAD_EVENT_QUEUE_ID) and keeps receiving', async () => {
    const page = await browser.newPage();
    try {
      let registers = 0;
      page.on('request', (r) => {
        if (r.url().includes('/json/register')) registers += 1;
      });
      let expire = true;
      await page.route('**/json/events?*', async (route) => {
        if (!expire) return route.continue();
        expire = false;
        await route.fulfill({
          status: 400,
          contentType: 'application/json',
          body: JSON.stringify({ result: 'error', msg: 'Bad event queue ID: gone', code: 'BAD_EVENT_QUEUE_ID' }),
        });
      });
      await signIn(page, 'cordelia@zulip.com');
      await page.waitForFunction(() => document.querySelector('.status')?.textContent === 'Connected');
      await page.click('[data-stream="Verona"]');
      const sent = await world
        .as('othello')
        .post('/messages', { type: 'stream', to: 'Verona', topic: 'news', content: 'Still there?' });
      await page.waitForSelector(`.message[data-id="${sent.body.id}"]`);
      expect(registers).toBeGreaterThanOrEqual(2);
    } finally {
      await page.close();
    }
  });

  it('two people chat in a channel and in direct messages, each page updating live', async () => {
    const [first, second] = [await browser.newContext(), await browser.newContext()];
    const shiva = await first.newPage();
    const polonius = await second.newPage();
    try {
      await signIn(shiva, 'shiva@zulip.com');
      await signIn(polonius, 'polonius@zulip.com');
      // Both in Verona (the one channel the guest Polonius is in).
      await shiva.click('[data-stream="Verona"]');
      await polonius.click('[data-stream="Verona"]');
      await shiva.fill('#compose-topic', 'arras');
      await shiva.fill('#compose-content', 'How now! a rat?');
      await shiva.click('#compose-send');
      await polonius.waitForSelector('.message .content >> text=How now! a rat?');
      await polonius.fill('#compose-topic', 'arras');
      await polonius.fill('#compose-content', 'O, I am slain!');
      // Ctrl+Enter sends (Zulip's default, enter_sends off).
      await polonius.press('#compose-content', 'Control+Enter');
      await shiva.waitForSelector('.message .content >> text=O, I am slain!');

      // A direct message: the other's list shows it unread until they open the conversation.
      await shiva.click('[data-user="polonius@zulip.com"]');
      await shiva.fill('#compose-content', 'Thou wretched, rash, intruding fool, farewell!');
      await shiva.click('#compose-send');
      await polonius.waitForSelector('[data-user="shiva@zulip.com"] .unread');
      expect(await polonius.textContent('[data-user="shiva@zulip.com"] .unread')).toBe('1');
      await polonius.click('[data-user="shiva@zulip.com"]');
      await polonius.waitForSelector('.message .content >> text=intruding fool');
      await polonius.waitForSelector('[data-user="shiva@zulip.com"] .unread', { state: 'detached' });
      await polonius.fill('#compose-content', 'I took thee for thy better.');
      await polonius.click('#compose-send');
      await shiva.waitForSelector('.message .content >> text=I took thee for thy better.');

      const dms = await world.as('shiva').get('/messages', {
        anchor: 'newest',
        num_before: 2,
        num_after: 0,
        narrow: JSON.stringify([{ operator: 'dm', operand: [world.user('polonius').id] }]),
      });
      expect((dms.body.messages as { content: string }[]).map((m) => m.content)).toEqual([
        '<p>Thou wretched, rash, intruding fool, farewell!</p>',
        '<p>I took thee for thy better.</p>',
      ]);
    } finally {
      await first.close();
      await second.close();
    }
  });

  it('completes emoji names in compose, and reacts with any emoji from the picker', async () => {
    const page = await browser.newPage();
    try {
      await signIn(page, 'cordelia@zulip.com');
      await page.click('[data-stream="Verona"]');
      await page.fill('#compose-topic', 'celebrations');
      await page.fill('#compose-content', 'We won :ta');
      await page.press('#compose-content', 'd');
      await page.waitForSelector('#compose-mentions[aria-label="Emoji"] [role=option] >> text=:tada:');
      await page.press('#compose-content', 'Tab');
      expect(await page.inputValue('#compose-content')).toBe('We won :tada: ');
      await page.click('#compose-send');
      const sent = page.locator('.message', { hasText: 'We won' });
      await sent.waitFor();
      const id = Number(await sent.getAttribute('data-id'));
      const cordelia = world.as('cordelia');
      const raw = (await cordelia.get(`/messages/${id}`, { apply_markdown: false })).body.message.content;
      expect(raw).toBe('We won :tada:');

      await page.click(`.message[data-id="${id}"] button.pick-reaction`);
      await page.fill(`.message[data-id="${id}"] .emoji-search`, 'hear');
      await page.click(`.message[data-id="${id}"] [data-emoji="heart"]`);
      await page.waitForSelector(`.message[data-id="${id}"] .reaction.mine[aria-label="heart: 1"]`);
      const reactions = (await cordelia.get(`/messages/${id}`)).body.message.reactions as Record<string, unknown>[];
      expect(reactions.map((r) => [r.emoji_name, r.reaction_type, r.user_id])).toEqual([
        ['heart', 'unicode_emoji', world.user('cordelia').id],
      ]);
    } finally {
      await page.close();
    }
  });

  it('lists the open channel’s topics with their unread counts, and narrows to a topic', async () => {
    const page = await browser.newPage();
    const othello = world.as('othello');
    try {
      expect(
        (await othello.post('/messages', { type: 'stream', to: 'Venice', topic: 'bridges', content: 'Rialto' })).status,
      ).toBe(200);
      await signIn(page, 'prospero@zulip.com');
      await page.click('[data-stream="Venice"]');
      await page.click('[data-topic="bridges"]');
      expect(await page.textContent('#narrow-title')).toBe('#Venice > bridges');
      expect(await page.inputValue('#compose-topic')).toBe('bridges');

      // A message in another topic of the channel is not on screen: its topic shows it as unread.
      const sent = await othello.post('/messages', {
        type: 'stream',
        to: 'Venice',
        topic: 'gondolas',
        content: 'Row, row',
      });
      expect(sent.status).toBe(200);
      await page.waitForSelector('[data-topic="gondolas"] .unread');
      expect(await page.textContent('[data-topic="gondolas"] .unread')).toBe('1');
      expect(await page.locator('.message', { hasText: 'Row, row' }).count()).toBe(0);

      // Opening the topic shows it and reads it.
      await page.click('[data-topic="gondolas"]');
      expect(await page.textContent('#narrow-title')).toBe('#Venice > gondolas');
      await page.locator('.message', { hasText: 'Row, row' }).waitFor();
      await page.waitForSelector('[data-topic="gondolas"] .unread', { state: 'detached' });
      const read = await world.as('prospero').get(`/messages/${sent.body.id as number}`);
      expect(read.body.message.flags).toContain('read');
    } finally {
      await page.close();
    }
  });

  it("moves someone else's message to another topic as an administrator", async () => {
    const page = await browser.newPage();
    try {
      await signIn(page, 'iago@zulip.com');
      await page.click('[data-stream="Denmark"]');
      const sent = await world
        .as('othello')
        .post('/messages', { type: 'stream', to: 'Denmark', topic: 'ramparts', content: 'A ghost!' });
      expect(sent.status).toBe(200);
      const id = sent.body.id as number;
      await page.waitForSelector(`.message[data-id="${id}"]`);
      // Its "⋯" menu offers moving (and, to an administrator, deleting) it, not editing its text.
      await page.click(`.message[data-id="${id}"] button.more`);
      expect(await page.locator(`.message[data-id="${id}"] .menu [role="menuitem"]`).allTextContents()).toEqual([
        'Copy link to message',
        'Quote and reply',
        'Move message',
        'Mark as unread from here',
        'Delete message',
      ]);
      await page.click(`.message[data-id="${id}"] .menu [role="menuitem"].move`);
      // Only where it lives can change: the text of someone else's message is not offered.
      expect(await page.locator(`.message[data-id="${id}"] .edit-content`).count()).toBe(0);
      await page.fill(`.message[data-id="${id}"] .edit-topic`, 'battlements');
      await page.click(`.message[data-id="${id}"] .edit-save`);
      await page.waitForSelector(`.message[data-id="${id}"] .topic >> text=battlements`);
      const moved = await world.as('othello').get(`/messages/${id}`);
      expect([moved.body.message.subject, moved.body.message.content]).toEqual(['battlements', '<p>A ghost!</p>']);
    } finally {
      await page.close();
    }
  });

  it("changes one's name and password, manages user groups and invitation links on the settings page", async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const page = await context.newPage();
    const aaron = world.user('aaron');
    try {
      await signIn(page, aaron.email);
      await page.click('#settings-open');
      expect(await page.inputValue('#settings-full-name')).toBe(aaron.fullName);
      await page.fill('#settings-full-name', 'Aaron the Moor');
      await page.click('#settings-save-name');
      await page.waitForSelector('.settings-page [role=status] >> text=Name saved');
      expect((await world.as('aaron').get('/users/me')).body.full_name).toBe('Aaron the Moor');

      // A wrong current password is refused with the server's message; the right one changes it.
      await page.fill('#settings-old-password', 'not-my-password');
      await page.fill('#settings-new-password', 'a-new-password-1');
      await page.click('#settings-save-password');
      await page.waitForSelector('.settings-page [role=alert] >> text=Wrong password!');
      await page.fill('#settings-old-password', DEV_PASSWORD);
      await page.fill('#settings-new-password', 'a-new-password-1');
      await page.click('#settings-save-password');
      await page.waitForSelector('.settings-page [role=status] >> text=Password changed');
      const login = await world
        .anonymous()
        .post('/fetch_api_key', { username: aaron.email, password: 'a-new-password-1' });
      expect(login.status).toBe(200);
      // This page stays signed in (it signed in again with the new password); the requests below go through it.

      // A new group with oneself in it; leaving it shows and is kept.
      await page.fill('#group-name', 'gondoliers');
      await page.fill('#group-description', 'They row');
      await page.click('#group-create');
      await page.waitForSelector('[data-group="gondoliers"] .members >> text=Aaron the Moor');
      await page.click('[data-group="gondoliers"] button.leave-group');
      await page.waitForSelector('[data-group="gondoliers"] button.join-group');
      const groups = (await world.as('aaron').get('/user_groups')).body.user_groups as Record<string, any>[];
      const gondoliers = groups.find((g) => g.name === 'gondoliers')!;
      expect([gondoliers.description, gondoliers.members]).toEqual(['They row', []]);
      await page.screenshot({ path: join(SCREENSHOTS, 'settings.png') });
    } finally {
      await context.close();
    }

    // Invitation links, as an administrator: create one for guests, see it listed, revoke it.
    const admin = await browser.newPage();
    try {
      await signIn(admin, 'iago@zulip.com');
      await admin.click('#settings-open');
      await admin.selectOption('#invite-role', '600');
      await admin.click('#invite-create');
      const link = (await admin.locator('#invite-link').textContent())!;
      expect(link).toMatch(/\/join\/[^/]+\/$/);
      const listed = (await world.as('iago').get('/invites')).body.invites as Record<string, any>[];
      const invite = listed.find((i) => i.link_url === link)!;
      expect(invite.invited_as).toBe(600);
      await admin.waitForSelector(`[data-invite="${invite.id}"]`);
      await admin.click(`[data-invite="${invite.id}"] button.revoke-invite`);
      await admin.waitForSelector(`[data-invite="${invite.id}"]`, { state: 'detached' });
      const after = (await world.as('iago').get('/invites')).body.invites as Record<string, any>[];
      expect(after.some((i) => i.id === invite.id)).toBe(false);
    } finally {
      await admin.close();
    }
  });

  it('is usable at phone size: the conversation list opens from the menu button', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 780 }, isMobile: true });
    const page = await context.newPage();
    try {
      await signIn(page, 'othello@zulip.com');
      expect(await page.isVisible('#sidebar')).toBe(false);
      await page.click('button.menu');
      expect(await page.getAttribute('button.menu', 'aria-expanded')).toBe('true');
      await page.click('[data-stream="Denmark"]');
      expect(await page.isVisible('#sidebar')).toBe(false);
      await page.waitForSelector('.message');
      expect(await page.isVisible('#compose-content')).toBe(true);
      await page.screenshot({ path: join(SCREENSHOTS, 'phone.png') });
    } finally {
      await context.close();
    }
  });
});

/**
 * Asks the gateway for what a page's GET would get, from here: the page's host (`*.localhost`) resolves only inside
 * the browser, so the request goes to 127.0.0.1 with the page's Host header and cookies.
 */
function answerNow(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: target.port,
        path: `${target.pathname}${target.search}`,
        headers: { ...headers, host: target.host, 'accept-encoding': 'identity' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: Object.fromEntries(
              Object.entries(res.headers).flatMap(([k, v]) => (typeof v === 'string' ? [[k, v]] : [])),
            ),
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}
