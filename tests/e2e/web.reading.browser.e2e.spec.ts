import pg from 'pg';
import type { Page } from 'playwright-core';
import { DEV_PASSWORD } from '@confab/devkit';
import { seriousViolations } from './support/axe';
import { join } from 'node:path';
import { eventually, SCREENSHOTS, sendToChannel, useBrowserWorld, userPage } from './support/browser';
import { adminEnv } from './support/imports';

/** Moves messages back in time by `days` (the server stamps every message it takes with now; imports keep their own). */
async function backdate(ids: number[], days: number): Promise<void> {
  const client = new pg.Client({ connectionString: adminEnv().MESSAGING_DATABASE_URL });
  await client.connect();
  try {
    await client.query(
      `UPDATE messages SET date_sent = date_sent - make_interval(days => $2) WHERE id = ANY($1::int[])`,
      [ids, days],
    );
  } finally {
    await client.end();
  }
}

jest.setTimeout(240_000);

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** Issue 45: what a reader sees in the message view (long words, times, stars, images, drafts, sign-in, reading). */
describe('the web client: reading', () => {
  const env = useBrowserWorld();
  const streamId = async (name: string) =>
    (await env.world.as('othello').get('/get_stream_id', { stream: name })).body.stream_id as number;
  const topicHash = async (channel: string, topic: string) =>
    `#narrow/channel/${await streamId(channel)}-${channel}/topic/${encodeURIComponent(topic).replace(/%/g, '.')}`;
  const open = async (page: Page, hash: string, selector: string) => {
    await page.goto(`${env.origin}/${hash}`);
    await page.waitForSelector(selector);
  };

  it('wraps a 400-character word inside its message, and a long code line scrolls inside the message', async () => {
    const word = `https://example.com/${'a1b2c3d4'.repeat(50)}`;
    const hash = 'f'.repeat(400);
    const log = `2026-12-02T04:00:00Z ERROR ${'stack>frame;'.repeat(34)}`;
    const id = await sendToChannel(env.world, 'othello', 'Verona', 'long words', `${word}\n\n${hash}\n\n${log}`);
    const code = await sendToChannel(
      env.world,
      'othello',
      'Verona',
      'long words',
      `\`\`\`\n${'const x = 1; '.repeat(60)}\n\`\`\``,
    );
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      await open(page, await topicHash('Verona', 'long words'), `.message[data-id="${code}"]`);
      const seen = await page.evaluate(
        ({ id, code }) => {
          const list = document.querySelector<HTMLElement>('.messages')!;
          const message = document.querySelector<HTMLElement>(`.message[data-id="${id}"] .content`)!;
          const pre = document.querySelector<HTMLElement>(`.message[data-id="${code}"] pre`)!;
          const codeMessage = document.querySelector<HTMLElement>(`.message[data-id="${code}"]`)!;
          return {
            list: { scroll: list.scrollWidth, client: list.clientWidth },
            message: { scroll: message.scrollWidth, client: message.clientWidth, height: message.clientHeight },
            pre: {
              scroll: pre.scrollWidth,
              client: pre.clientWidth,
              right: pre.getBoundingClientRect().right,
              overflow: getComputedStyle(pre).overflowX,
            },
            messageRight: codeMessage.getBoundingClientRect().right,
            page: document.documentElement.scrollWidth - window.innerWidth,
          };
        },
        { id, code },
      );
      // The list never scrolls sideways, the page neither.
      expect(seen.list.scroll).toBeLessThanOrEqual(seen.list.client);
      expect(seen.page).toBeLessThanOrEqual(0);
      // The long words wrap onto several lines inside their message.
      expect(seen.message.scroll).toBeLessThanOrEqual(seen.message.client);
      expect(seen.message.height).toBeGreaterThan(60);
      // The code keeps its lines and scrolls inside the message.
      expect(seen.pre.overflow).toBe('auto');
      expect(seen.pre.scroll).toBeGreaterThan(seen.pre.client);
      expect(seen.pre.right).toBeLessThanOrEqual(seen.messageRight);
    } finally {
      await context.close();
    }
  });

  it('shows each message’s time, with the date when it is not today, and the full date and time as its tooltip', async () => {
    const id = await sendToChannel(env.world, 'othello', 'Verona', 'times', 'What is the hour?');
    const sent = (await env.world.as('othello').get(`/messages/${id}`)).body.message.timestamp as number;
    const at = new Date(sent * 1000);
    const utc = (options: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', ...options }).format(at);
    const hourMinute = utc({ hour: 'numeric', minute: '2-digit' }).replace(/\s/g, ' ');
    const options = { locale: 'en-US', timezoneId: 'UTC' };
    const today = await userPage(env.browser, env.origin, 'hamlet@zulip.com', options);
    // The same message read three days later (the page's clock moved on).
    const later = await userPage(env.browser, env.origin, 'hamlet@zulip.com', options);
    try {
      const hash = await topicHash('Verona', 'times');
      await open(today.page, hash, `.message[data-id="${id}"] time`);
      const time = today.page.locator(`.message[data-id="${id}"] time`);
      expect((await time.textContent())?.replace(/\s/g, ' ')).toBe(hourMinute);
      const title = ((await time.getAttribute('title')) ?? '').replace(/\s/g, ' ');
      for (const part of [
        utc({ weekday: 'long' }),
        utc({ month: 'long' }),
        utc({ day: 'numeric' }),
        utc({ year: 'numeric' }),
        hourMinute.replace(/\s?[AP]M$/, ''),
      ])
        expect(title).toContain(part);

      await later.page.clock.setFixedTime(sent * 1000 + 3 * 86_400_000);
      await open(later.page, hash, `.message[data-id="${id}"] time`);
      const shown = ((await later.page.locator(`.message[data-id="${id}"] time`).textContent()) ?? '').replace(
        /\s/g,
        ' ',
      );
      expect(shown).toContain(utc({ month: 'short', day: 'numeric' }));
      expect(shown).toContain(hourMinute);
    } finally {
      await today.context.close();
      await later.context.close();
    }
  });

  it('takes an unstarred message out of the Starred view at once', async () => {
    const hamlet = env.world.as('hamlet');
    const kept = await sendToChannel(env.world, 'othello', 'Verona', 'stars', 'Keep this one');
    const dropped = await sendToChannel(env.world, 'othello', 'Verona', 'stars', 'Unstar this one');
    for (const id of [kept, dropped])
      expect(
        (await hamlet.post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'starred' })).status,
      ).toBe(200);
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      await open(page, '#narrow/is/starred', `.message[data-id="${dropped}"]`);
      await page.click(`.message[data-id="${dropped}"] button.star`);
      await page.waitForSelector(`.message[data-id="${dropped}"]`, { state: 'detached', timeout: 5000 });
      expect(await page.locator(`.message[data-id="${kept}"]`).count()).toBe(1);
      const flags = (await hamlet.get(`/messages/${dropped}`)).body.message.flags as string[];
      expect(flags).not.toContain('starred');
    } finally {
      await context.close();
    }
  });

  it('gives the enlarged image the file’s name as its text', async () => {
    const uploaded = await env.world
      .as('othello')
      .post(
        '/api/v1/user_uploads',
        {},
        { files: [{ field: 'file', filename: 'yorick.png', contentType: 'image/png', data: PNG }] },
      );
    expect(uploaded.status).toBe(200);
    const id = await sendToChannel(
      env.world,
      'othello',
      'Verona',
      'portraits',
      `[yorick.png](${uploaded.body.url as string})`,
    );
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      await open(page, await topicHash('Verona', 'portraits'), `.message[data-id="${id}"] .message_inline_image img`);
      await page.click(`.message[data-id="${id}"] .message_inline_image img`);
      const large = page.locator('.lightbox img');
      await large.waitFor();
      expect(await large.getAttribute('alt')).toBe('yorick.png');
      expect(await page.getByRole('dialog', { name: 'yorick.png' }).count()).toBe(1);
    } finally {
      await context.close();
    }
  });

  it('says when to try signing in again after too many attempts', async () => {
    // Five wrong passwords: the server then refuses sign-ins for this address for a while (RATE_LIMIT_HIT).
    const anonymous = env.world.anonymous();
    for (let i = 0; i < 6; i++)
      await anonymous.post('/fetch_api_key', { username: 'aaron@zulip.com', password: 'wrong' });
    const refused = await anonymous.post('/fetch_api_key', { username: 'aaron@zulip.com', password: DEV_PASSWORD });
    expect(refused.status).toBe(429);
    const wait = Math.ceil(refused.body['retry-after'] as number);
    expect(wait).toBeGreaterThan(0);
    const context = await env.browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${env.origin}/`);
      await page.fill('#email', 'aaron@zulip.com');
      await page.fill('#password', DEV_PASSWORD);
      await page.click('#signin');
      const error = page.locator('#signin-error');
      await error.waitFor();
      const text = (await error.textContent()) ?? '';
      expect(text).not.toContain('API usage exceeded rate limit');
      const seconds = Number(/Try again in (\d+) seconds?/.exec(text)?.[1]);
      expect(seconds).toBeGreaterThan(0);
      expect(seconds).toBeLessThanOrEqual(wait);
    } finally {
      await context.close();
    }
  });

  it('lets a draft without a recipient get one, and opens it there', async () => {
    const prospero = env.world.as('prospero');
    const made = await prospero.post('/drafts', {
      drafts: JSON.stringify([
        {
          type: '',
          to: [],
          topic: '',
          content: 'We are such stuff as dreams',
          timestamp: Math.floor(Date.now() / 1000),
        },
      ]),
    });
    expect(made.status).toBe(200);
    const draftId = (made.body.ids as number[])[0];
    const denmark = await streamId('Denmark');
    const { context, page } = await userPage(env.browser, env.origin, 'prospero@zulip.com');
    try {
      await open(page, '#drafts', `[data-draft="${draftId}"]`);
      const row = page.locator(`[data-draft="${draftId}"]`);
      expect(await seriousViolations(page)).toEqual([]);
      await row.getByLabel('Send to').selectOption({ label: '#Denmark' });
      await row.getByLabel('Topic').fill('revels');
      await row.getByRole('button', { name: 'Save recipient' }).click();
      await row.getByRole('link', { name: '#Denmark > revels' }).waitFor();
      const saved = (await prospero.get('/drafts')).body.drafts as {
        id: number;
        type: string;
        to: number[];
        topic: string;
      }[];
      expect(saved.find((d) => d.id === draftId)).toMatchObject({ type: 'stream', to: [denmark], topic: 'revels' });
      // Opening it goes to the conversation with the draft in its compose box.
      await row.getByRole('link', { name: '#Denmark > revels' }).click();
      await page.waitForFunction(
        () => document.querySelector<HTMLTextAreaElement>('#compose-content')?.value === 'We are such stuff as dreams',
      );

      // A second one to a person.
      const other = await prospero.post('/drafts', {
        drafts: JSON.stringify([
          { type: '', to: [], topic: '', content: 'Our little life', timestamp: Math.floor(Date.now() / 1000) },
        ]),
      });
      const otherId = (other.body.ids as number[])[0];
      await open(page, '#drafts', `[data-draft="${otherId}"]`);
      const second = page.locator(`[data-draft="${otherId}"]`);
      await second.getByLabel('Send to').selectOption({ label: env.world.user('othello').fullName });
      expect(await second.getByLabel('Topic').count()).toBe(0);
      await second.getByRole('button', { name: 'Save recipient' }).click();
      await second.getByRole('link', { name: env.world.user('othello').fullName }).waitFor();
      const dm = ((await prospero.get('/drafts')).body.drafts as { id: number; type: string; to: number[] }[]).find(
        (d) => d.id === otherId,
      );
      expect(dm).toMatchObject({ type: 'private', to: [env.world.user('othello').id] });
    } finally {
      await context.close();
    }
  });

  describe('the reading layout', () => {
    it('groups messages into recipient blocks: a #channel › topic bar, or the people of a DM', async () => {
      const a1 = await sendToChannel(env.world, 'othello', 'Denmark', 'watch', 'Who is there?');
      const a2 = await sendToChannel(env.world, 'iago', 'Denmark', 'watch', 'Nay, answer me');
      const b1 = await sendToChannel(env.world, 'othello', 'Denmark', 'players', 'The players are come');
      const a3 = await sendToChannel(env.world, 'iago', 'Denmark', 'watch', 'Long live the king');
      const dm = await env.world.as('shiva').post('/messages', {
        type: 'private',
        to: JSON.stringify([env.world.user('hamlet').id]),
        content: 'A word, my lord',
      });
      const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
      try {
        await open(page, `#narrow/channel/${await streamId('Denmark')}-Denmark`, `.message[data-id="${a3}"]`);
        const bar = (id: number) => page.locator(`.message[data-id="${id}"] .recipient-bar`);
        // A bar where the conversation changes, none inside a block.
        expect(await bar(a1).locator('.channel-link').textContent()).toBe('#Denmark');
        expect(await bar(a1).locator('.bar-sep').textContent()).toBe('›');
        expect(await bar(a1).locator('.where').textContent()).toBe('watch');
        expect(await bar(a2).count()).toBe(0);
        expect(await bar(b1).locator('.where').textContent()).toBe('players');
        expect(await bar(a3).locator('.where').textContent()).toBe('watch');
        // The day is on the bar, unless a date separator says it just above.
        expect(await bar(b1).locator('.bar-date').textContent()).toBe('Today');
        // Its links: the channel and the topic.
        await bar(b1).getByRole('link', { name: '#Denmark > players' }).click();
        await page.waitForFunction(() => document.querySelector('#narrow-title')?.textContent === '#Denmark > players');
        await page.waitForSelector(`.message[data-id="${b1}"] .recipient-bar`);
        expect(await page.locator('.recipient-bar').count()).toBe(1);
        await page.locator('.recipient-bar .channel-link').click();
        await page.waitForFunction(() => document.querySelector('#narrow-title')?.textContent === '#Denmark');

        // A DM's bar names its people.
        await page.click('[data-user="shiva@zulip.com"]');
        const dmBar = page.locator(`.message[data-id="${dm.body.id}"] .recipient-bar`);
        await dmBar.waitFor();
        expect(await dmBar.locator('.where').textContent()).toBe(`You and ${env.world.user('shiva').fullName}`);
      } finally {
        await context.close();
      }
    });

    it('shows one sender’s consecutive messages under one avatar and name', async () => {
      const first = await sendToChannel(env.world, 'othello', 'Denmark', 'speeches', 'Speak the speech, I pray you');
      const second = await sendToChannel(env.world, 'othello', 'Denmark', 'speeches', 'trippingly on the tongue');
      const third = await sendToChannel(env.world, 'othello', 'Denmark', 'speeches', 'but if you mouth it');
      const other = await sendToChannel(env.world, 'iago', 'Denmark', 'speeches', 'I warrant your honour');
      const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
      try {
        await open(page, await topicHash('Denmark', 'speeches'), `.message[data-id="${other}"]`);
        const shown = (id: number) =>
          page.evaluate((id) => {
            const m = document.querySelector(`.message[data-id="${id}"]`)!;
            const visible = (sel: string) => {
              const el = m.querySelector<HTMLElement>(sel);
              return !!el && el.getBoundingClientRect().width > 1;
            };
            return {
              avatar: visible('.avatar'),
              name: visible('button.sender'),
              height: m.getBoundingClientRect().height,
            };
          }, id);
        expect(await shown(first)).toMatchObject({ avatar: true, name: true });
        const [two, three] = [await shown(second), await shown(third)];
        expect(two).toMatchObject({ avatar: false, name: false });
        expect(three).toMatchObject({ avatar: false, name: false });
        expect(await shown(other)).toMatchObject({ avatar: true, name: true });
        // A continued message is one line of text high, its time beside it.
        expect(two.height).toBeLessThan(40);
        // A screen reader still hears whose it is.
        expect(await page.locator(`.message[data-id="${second}"] .sender-name`).textContent()).toBe(
          env.world.user('othello').fullName,
        );
        expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({ path: join(SCREENSHOTS, 'reading.png') });
      } finally {
        await context.close();
      }
    });

    it('separates the days with the date, and starts a new block on a new day', async () => {
      const old = await sendToChannel(env.world, 'othello', 'Denmark', 'chronicle of days', 'Three days ago');
      const older = await sendToChannel(env.world, 'othello', 'Denmark', 'chronicle of days', 'Still three days ago');
      const today = await sendToChannel(env.world, 'othello', 'Denmark', 'chronicle of days', 'Today again');
      await backdate([old, older], 3);
      const sent = (await env.world.as('othello').get(`/messages/${old}`)).body.message.timestamp as number;
      const day = new Intl.DateTimeFormat('en-US', {
        timeZone: 'UTC',
        weekday: 'long',
        month: 'long',
        day: 'numeric',
      }).format(new Date(sent * 1000));
      const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com', {
        locale: 'en-US',
        timezoneId: 'UTC',
      });
      try {
        await open(page, await topicHash('Denmark', 'chronicle of days'), `.message[data-id="${today}"]`);
        // (The "New messages" divider, above the first unread one, is not what this is about.)
        const order = await page.$$eval('.messages > li:not(.unread-divider)', (items) =>
          items.map((li) =>
            li.classList.contains('date-separator') ? `— ${li.textContent}` : `${li.getAttribute('data-id')}`,
          ),
        );
        expect(order).toEqual([`— ${day}`, String(old), String(older), '— Today', String(today)]);
        // The new day starts a new block with its own bar; the old day's time shows its date.
        expect(await page.locator(`.message[data-id="${today}"] .recipient-bar`).count()).toBe(1);
        expect(await page.locator(`.message[data-id="${older}"] .recipient-bar`).count()).toBe(0);
        expect(await page.locator(`.message[data-id="${old}"] .recipient-bar .bar-date`).count()).toBe(0);
        expect(await seriousViolations(page)).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it('shows a message’s actions on hover and on focus, not all the time; a star stays visible', async () => {
      const plain = await sendToChannel(env.world, 'othello', 'Denmark', 'actions', 'Nothing to see');
      const starred = await sendToChannel(env.world, 'iago', 'Denmark', 'actions', 'A starred one');
      await env.world
        .as('hamlet')
        .post('/messages/flags', { messages: JSON.stringify([starred]), op: 'add', flag: 'starred' });
      const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
      try {
        await open(page, await topicHash('Denmark', 'actions'), `.message[data-id="${starred}"]`);
        await page.mouse.move(5, 5);
        const opacity = (id: number, button: string) =>
          page.$eval(`.message[data-id="${id}"] .actions button.${button}`, (el) => getComputedStyle(el).opacity);
        expect(await opacity(plain, 'star')).toBe('0');
        expect(await opacity(plain, 'more')).toBe('0');
        expect(await opacity(starred, 'star')).toBe('1');
        expect(await opacity(starred, 'more')).toBe('0');
        // Hover shows them.
        await page.hover(`.message[data-id="${plain}"] .content`);
        expect(await opacity(plain, 'star')).toBe('1');
        expect(await opacity(plain, 'more')).toBe('1');
        expect(await opacity(starred, 'more')).toBe('0');
        await page.screenshot({ path: join(SCREENSHOTS, 'reading-actions.png') });
        // So does the keyboard: focus inside the message.
        await page.mouse.move(5, 5);
        await page.focus(`.message[data-id="${starred}"] button.sender`);
        expect(await opacity(starred, 'more')).toBe('1');
        expect(await opacity(plain, 'more')).toBe('0');
        await page.keyboard.press('Tab');
        const focused = await page.evaluate(() => ({
          inside: document.activeElement?.closest('.message')?.getAttribute('data-id'),
          opacity: document.activeElement ? getComputedStyle(document.activeElement).opacity : '',
        }));
        expect(focused.opacity).toBe('1');
      } finally {
        await context.close();
      }
    });
  });

  it('marks a direct message read when its recipient opens it, every time', async () => {
    const shiva = env.world.as('shiva');
    const cordelia = env.world.user('cordelia');
    const { context, page } = await userPage(env.browser, env.origin, 'cordelia@zulip.com');
    // What the server answers while it has not yet applied the reader's own previous change (its read-your-writes
    // gate, under load): 503 "retry later". The first request to mark read in each scenario gets that answer.
    let refuseNext = false;
    let refused = 0;
    await page.route('**/json/messages/flags', async (route) => {
      if (!refuseNext || !(route.request().postData() ?? '').includes('flag=read')) return route.continue();
      refuseNext = false;
      refused += 1;
      await route.fulfill({
        status: 503,
        headers: { 'Content-Type': 'application/json', 'Retry-After': '1' },
        body: JSON.stringify({
          result: 'error',
          msg: 'Service temporarily unavailable, retry later',
          code: 'SERVICE_UNAVAILABLE',
        }),
      });
    });
    const send = async (content: string) => {
      const sent = await shiva.post('/messages', { type: 'private', to: JSON.stringify([cordelia.id]), content });
      expect(sent.status).toBe(200);
      return sent.body.id as number;
    };
    const readEverywhere = async (id: number) => {
      await page.waitForSelector('[data-user="shiva@zulip.com"] .unread', { state: 'detached', timeout: 8000 });
      await eventually(
        'read on the server',
        async () => {
          const flags = (await env.world.as('cordelia').get(`/messages/${id}`)).body.message.flags as string[];
          return flags.includes('read');
        },
        5000,
      );
    };
    const toVerona = async () => {
      await page.click('[data-stream="Verona"]');
      await page.waitForFunction(() => document.querySelector('#narrow-title')?.textContent === '#Verona');
    };
    try {
      for (let round = 0; round < 3; round++) {
        // The message comes while a channel is read; then the conversation is opened from the sidebar.
        await toVerona();
        const id = await send(`Round ${round}`);
        refuseNext = round !== 1;
        await page.waitForSelector('[data-user="shiva@zulip.com"] .unread');
        await page.click('[data-user="shiva@zulip.com"]');
        await page.waitForSelector(`.message[data-id="${id}"]`);
        await readEverywhere(id);
        // The conversation is open when the next one comes.
        refuseNext = round !== 1;
        const next = await send(`Round ${round}, again`);
        await page.waitForSelector(`.message[data-id="${next}"]`);
        await readEverywhere(next);
        // It comes just as the conversation is being opened.
        await toVerona();
        refuseNext = round !== 1;
        const [, meanwhile] = await Promise.all([
          page.click('[data-user="shiva@zulip.com"]'),
          send(`Round ${round}, meanwhile`),
        ]);
        await page.waitForSelector(`.message[data-id="${meanwhile}"]`);
        await readEverywhere(meanwhile);
      }
      // Two rounds of three had their first request refused; the second went through at once.
      expect(refused).toBe(6);
    } finally {
      await context.close();
    }
  });
});
