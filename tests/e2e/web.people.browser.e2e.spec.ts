import { eventually, useBrowserWorld, userPage, waitForTitle } from './support/browser';

jest.setTimeout(240_000);

/** What Intl says the time is in a zone now and a minute later (the card may be drawn on either side of a minute). */
const timesIn = (timeZone: string) =>
  [0, 60_000].map((later) =>
    new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', hourCycle: 'h12', timeZone }).format(
      new Date(Date.now() + later),
    ),
  );

/** Issue 28, people: avatars drawn here, the user card, the people list with search, group DMs. */
describe('the web client: people', () => {
  const env = useBrowserWorld();

  it("opens a person's card from their name: role, status (live), local time, and a DM; no avatar from another host", async () => {
    const othello = env.world.as('othello');
    expect((await othello.patch('/settings', { timezone: 'Asia/Tokyo' })).status).toBe(200);
    expect((await othello.post('/users/me/status', { status_text: 'Sailing to Cyprus' })).status).toBe(200);
    const sent = await othello.post('/messages', { type: 'stream', to: 'Verona', topic: 'voyage', content: 'Ahoy' });
    expect(sent.status).toBe(200);

    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    const hosts = new Set<string>();
    page.on('request', (r) => hosts.add(new URL(r.url()).host));
    try {
      await page.click('[data-stream="Verona"]');
      const message = page.locator(`.message[data-id="${sent.body.id}"]`);
      await message.waitFor();
      // The sender's picture is drawn here (initials), not fetched from Gravatar.
      expect(await message.locator('.avatar.initials').textContent()).toBe('OV');
      await message.locator('button.sender').click();
      const card = page.locator('.user-card[role="dialog"]');
      await card.waitFor();
      expect(await card.locator('#user-card-name').textContent()).toBe('Othello, the Moor of Venice');
      expect(await card.locator('.role').textContent()).toBe('Member');
      expect(await card.locator('.status-text').textContent()).toBe('Sailing to Cyprus');
      expect(timesIn('Asia/Tokyo')).toContain(await card.locator('.local-time').textContent());

      // Othello changes his status elsewhere: the open card follows.
      expect((await othello.post('/users/me/status', { status_text: 'Landed' })).status).toBe(200);
      await card.locator('.status-text >> text=Landed').waitFor();

      // Esc closes it; "Send a DM" opens the conversation with him, ready to write.
      await page.keyboard.press('Escape');
      await card.waitFor({ state: 'detached' });
      await message.locator('button.sender').click();
      await page.click('.user-card .send-dm');
      await waitForTitle(page, 'Othello, the Moor of Venice');
      await page.waitForSelector('#compose-content');
      expect([...hosts]).toEqual([new URL(env.origin).host]);
    } finally {
      await context.close();
    }
  });

  it('lists people with a search, shows roles, and starts a group DM that the others see live', async () => {
    const a = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    const b = await userPage(env.browser, env.origin, 'othello@zulip.com');
    try {
      const page = a.page;
      await page.click('[data-view="people"]');
      await waitForTitle(page, 'People');
      const rows = page.locator('.people-list li');
      await eventually('everyone to be listed', async () => (await rows.count()) >= 9);
      await page.fill('#people-search', 'iag');
      await eventually('the search to narrow the list', async () => (await rows.count()) === 1);
      expect(await rows.first().locator('.role').textContent()).toBe('Administrator');
      await rows.first().locator('.person-name').click();
      expect(await page.locator('.user-card #user-card-name').textContent()).toBe('Iago');
      await page.click('.user-card .close-card');

      // Two people chosen: a group conversation.
      await page.fill('#people-search', 'othello');
      await page.click('[data-person="othello@zulip.com"] input.choose');
      await page.fill('#people-search', 'cordelia');
      await page.click('[data-person="cordelia@zulip.com"] input.choose');
      expect(await page.textContent('#people-message')).toBe('Message these 2');
      await page.click('#people-message');
      const ids = [env.world.user('othello'), env.world.user('cordelia')].sort((x, y) => x.id - y.id);
      await waitForTitle(page, ids.map((u) => u.fullName).join(', '));
      await page.fill('#compose-content', 'To the three of us');
      await page.click('#compose-send');
      await page.waitForSelector('.message .content >> text=To the three of us');

      // Othello's window lists the group conversation with its unread message, without reloading.
      const others = [env.world.user('hamlet').id, env.world.user('cordelia').id].sort((x, y) => x - y);
      const group = b.page.locator(`[data-group-dm="${others.join(',')}"]`);
      await group.locator('.unread >> text=1').waitFor();
      await group.click();
      await b.page.waitForSelector('.message .content >> text=To the three of us');
      await b.page.fill('#compose-content', 'Aye');
      await b.page.click('#compose-send');
      await page.waitForSelector('.message .content >> text=Aye');
      expect(await page.locator(`[data-group-dm="${ids.map((u) => u.id).join(',')}"]`).count()).toBe(1);
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });
});
