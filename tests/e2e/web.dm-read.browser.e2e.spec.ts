import type { Route } from 'playwright-core';
import { eventually, useBrowserWorld, userPage, waitForTitle } from './support/browser';

jest.setTimeout(240_000);

/**
 * Issue 45, defect 3: a direct message sometimes stayed unread after its recipient opened it. When the DM came while
 * another view was read, its message was only in what the conversation's history request brought; that request
 * answered 503 (the read-your-writes gate, while the service had not yet applied the reader's own previous change)
 * or 429 now and then, the view gave up, showed "No messages here yet", and nothing ever marked the DM read. Here
 * the server's refusal of the first history request is made deterministic by routing it.
 */
describe('the web client: a direct message opened is read', () => {
  const env = useBrowserWorld();

  const refusals: Record<string, (route: Route) => Promise<void>> = {
    '503 retry later': (route) =>
      route.fulfill({
        status: 503,
        headers: { 'Content-Type': 'application/json', 'Retry-After': '1' },
        body: JSON.stringify({
          result: 'error',
          msg: 'Service temporarily unavailable, retry later',
          code: 'SERVICE_UNAVAILABLE',
        }),
      }),
    '429 rate limit': (route) =>
      route.fulfill({
        status: 429,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          result: 'error',
          msg: 'API usage exceeded rate limit',
          code: 'RATE_LIMIT_HIT',
          'retry-after': 0.5,
        }),
      }),
    'a dropped connection': (route) => route.abort('connectionreset'),
  };

  it.each(Object.keys(refusals))(
    'shows it and marks it read when the history request first fails (%s)',
    async (refusal) => {
      const shiva = env.world.as('shiva');
      const cordelia = env.world.user('cordelia');
      const { context, page } = await userPage(env.browser, env.origin, 'cordelia@zulip.com');
      try {
        await page.click('[data-stream="Verona"]');
        await waitForTitle(page, '#Verona');
        const sent = await shiva.post('/messages', {
          type: 'private',
          to: JSON.stringify([cordelia.id]),
          content: `While reading Verona (${refusal})`,
        });
        expect(sent.status).toBe(200);
        const id = sent.body.id as number;
        await page.waitForSelector('[data-user="shiva@zulip.com"] .unread');
        // The DM's history request is refused once.
        let refused = 0;
        await page.route(
          (url) => url.pathname === '/json/messages' && (url.searchParams.get('narrow') ?? '').includes('"dm"'),
          async (route) => {
            if (refused > 0) return route.continue();
            refused += 1;
            await refusals[refusal]!(route);
          },
        );
        await page.click('[data-user="shiva@zulip.com"]');
        // The badge goes (before the fix it stayed: the view gave up and stayed empty), and the message shows.
        await page.waitForSelector('[data-user="shiva@zulip.com"] .unread', { state: 'detached', timeout: 10_000 });
        await page.waitForSelector(`.message[data-id="${id}"]`, { timeout: 10_000 });
        expect(refused).toBe(1);
        await eventually(
          'read on the server',
          async () => {
            const answer = await env.world.as('cordelia').get(`/messages/${id}`);
            return answer.status === 200 && (answer.body.message.flags as string[]).includes('read');
          },
          5000,
        );
      } finally {
        await context.close();
      }
    },
  );

  it('says so, and offers to try again, when the history cannot be loaded', async () => {
    const cordelia = env.world.user('cordelia');
    const sent = await env.world
      .as('shiva')
      .post('/messages', { type: 'private', to: JSON.stringify([cordelia.id]), content: 'Try again' });
    expect(sent.status).toBe(200);
    const { context, page } = await userPage(env.browser, env.origin, 'cordelia@zulip.com');
    try {
      let refuse = true;
      await page.route(
        (url) => url.pathname === '/json/messages' && (url.searchParams.get('narrow') ?? '').includes('"dm"'),
        (route) =>
          refuse
            ? route.fulfill({
                status: 400,
                headers: { 'Content-Type': 'application/json' },
                body: JSON.stringify({ result: 'error', msg: 'Invalid narrow operator: dm', code: 'BAD_REQUEST' }),
              })
            : route.continue(),
      );
      await page.click('[data-user="shiva@zulip.com"]');
      const alert = page.locator('.messages-pane [role="alert"]');
      await alert.waitFor();
      expect(await alert.textContent()).toContain('Could not load the messages: Invalid narrow operator: dm');
      expect(await page.locator('.messages-pane .empty').count()).toBe(0);
      refuse = false;
      await alert.locator('button', { hasText: 'Try again' }).click();
      await page.waitForSelector(`.message[data-id="${sent.body.id as number}"]`);
      expect(await alert.count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
