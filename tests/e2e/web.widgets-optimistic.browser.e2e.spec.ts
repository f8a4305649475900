import type { Page, Route } from 'playwright-core';
import { eventually, useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(240_000);

/**
 * Issue 45: a vote or a check shows at once, before the server's `submessage` event comes back; it counts once when
 * the event comes, and is taken back, with the server's reason, when the server refuses it. The request is held (or
 * refused) by routing it, so that "before the server has it" is a state the test can look at.
 */
describe('the web client: votes and checks show at once', () => {
  const env = useBrowserWorld();

  /** Holds the next POST /json/submessage until `release` is called. */
  async function holdNextUpdate(page: Page): Promise<{ held: Promise<void>; release: () => Promise<void> }> {
    let arrived!: () => void;
    const held = new Promise<void>((resolve) => (arrived = resolve));
    let route: Route | undefined;
    await page.route('**/json/submessage', async (r) => {
      route = r;
      arrived();
    });
    return {
      held,
      release: async () => {
        await route?.continue();
        await page.unroute('**/json/submessage');
      },
    };
  }
  const updatesOnServer = async (id: number) =>
    ((await env.world.as('hamlet').get(`/messages/${id}`)).body.message.submessages as { content: string }[])
      .slice(1)
      .map((s) => JSON.parse(s.content) as Record<string, unknown>);
  /** Othello's update through the API, seen on Hamlet's page: every earlier event of Hamlet's queue came before it. */
  const syncThrough = async (page: Page, id: number, data: object, shown: string) => {
    const sent = await env.world
      .as('othello')
      .post('/submessage', { message_id: id, msg_type: 'widget', content: JSON.stringify(data) });
    expect(sent.status).toBe(200);
    await page.locator(shown).waitFor();
  };
  const send = async (topic: string, content: string) => {
    const sent = await env.world.as('hamlet').post('/messages', { type: 'stream', to: 'Denmark', topic, content });
    expect(sent.status).toBe(200);
    return sent.body.id as number;
  };

  it('counts a vote at once, once when the server has it, and takes it back when refused', async () => {
    const id = await send('optimistic poll', '/poll Lunch?\nPizza\nSushi\nSoup');
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    const vote = (option: string) =>
      page.locator(`.message[data-id="${id}"] .poll-option[data-option="${option}"] .poll-vote`);
    try {
      await page.click('[data-stream="Denmark"]');
      await vote('Sushi').waitFor();
      const hold = await holdNextUpdate(page);
      await vote('Sushi').click();
      await hold.held;
      // Held on its way: the vote shows already.
      expect(await vote('Sushi').getAttribute('aria-label')).toBe('Sushi: 1 vote');
      expect(await vote('Sushi').getAttribute('aria-pressed')).toBe('true');
      expect(await updatesOnServer(id)).toEqual([]);
      await hold.release();
      await eventually('the vote on the server', async () => (await updatesOnServer(id)).length === 1);
      // Once its event has come (Othello's later vote is shown), it still counts once.
      await syncThrough(
        page,
        id,
        { type: 'vote', key: 'canned,0', vote: 1 },
        `.message[data-id="${id}"] .poll-option[data-option="Pizza"] .poll-vote[aria-label="Pizza: 1 vote"]`,
      );
      expect(await vote('Sushi').getAttribute('aria-label')).toBe('Sushi: 1 vote');

      // A vote the server refuses goes away again, with its reason.
      await page.route('**/json/submessage', (route) =>
        route.fulfill({
          status: 400,
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ result: 'error', code: 'BAD_REQUEST', msg: 'Invalid poll data' }),
        }),
      );
      await vote('Soup').click();
      const alert = page.locator(`.message[data-id="${id}"] .poll-widget [role="alert"]`);
      await alert.waitFor();
      expect(await alert.textContent()).toBe('Invalid poll data');
      expect(await vote('Soup').getAttribute('aria-label')).toBe('Soup: 0 votes');
      expect(await vote('Soup').getAttribute('aria-pressed')).toBe('false');
      expect(await updatesOnServer(id)).toEqual([
        { type: 'vote', key: 'canned,1', vote: 1 },
        { type: 'vote', key: 'canned,0', vote: 1 },
      ]);
    } finally {
      await context.close();
    }
  });

  it('checks a task at once, and it stays checked when the server’s event comes', async () => {
    const id = await send('optimistic todo', '/todo Moving day\nPack books\nReturn keys');
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    const box = (task: string) =>
      page.locator(`.message[data-id="${id}"] .todo-task[data-task="${task}"] input[type="checkbox"]`);
    const done = (task: string) => page.locator(`.message[data-id="${id}"] .todo-task.done[data-task="${task}"]`);
    try {
      await page.click('[data-stream="Denmark"]');
      await box('Pack books').waitFor();
      const hold = await holdNextUpdate(page);
      await box('Pack books').click();
      await hold.held;
      // Shown done (not only the browser's own tick of the box) while the request is held.
      expect(await done('Pack books').count()).toBe(1);
      expect(await box('Pack books').isChecked()).toBe(true);
      expect(await updatesOnServer(id)).toEqual([]);
      await hold.release();
      await eventually('the check on the server', async () => (await updatesOnServer(id)).length === 1);
      // The event of the check has come (Othello's later one shows): applied once, the task is still checked.
      await syncThrough(
        page,
        id,
        { type: 'strike', key: '1,canned' },
        `.message[data-id="${id}"] .todo-task.done[data-task="Return keys"]`,
      );
      expect(await done('Pack books').count()).toBe(1);
      expect(await box('Pack books').isChecked()).toBe(true);
      expect(await updatesOnServer(id)).toEqual([
        { type: 'strike', key: '0,canned' },
        { type: 'strike', key: '1,canned' },
      ]);
    } finally {
      await context.close();
    }
  });
});
