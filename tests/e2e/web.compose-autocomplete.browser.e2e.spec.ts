import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe';
import { eventually, useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(180_000);

/** The options the compose box offers now, in its listbox named `label`: their text, the selected one marked. */
async function offered(page: Page, label: string, first: string): Promise<string[]> {
  const list = `#compose-mentions[aria-label="${label}"]`;
  await page.waitForSelector(`${list} [role=option]:first-child >> text=${first}`);
  return page.$$eval(`${list} [role=option]`, (items) =>
    items.map((li) => `${li.getAttribute('aria-selected') === 'true' ? '> ' : ''}${li.textContent ?? ''}`),
  );
}

/** The completion moves the caret in the next animation frame; typing on waits for it. */
const nextFrame = (page: Page) =>
  page.evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));

/** Completing in the compose box as Zulip's: #channel, #channel>topic, @group and / commands. */
describe('the web client: compose autocomplete', () => {
  const env = useBrowserWorld();

  it('completes channels, topics, groups and commands, and the sent message links and mentions them', async () => {
    const { world } = env;
    const topic = await world.as('othello').post('/messages', {
      type: 'stream',
      to: 'Verona',
      topic: 'balcony scene',
      content: 'But soft!',
    });
    expect(topic.status).toBe(200);
    const othelloId = (await world.as('othello').get('/users/me')).body.user_id as number;
    const group = await world.as('iago').post('/user_groups/create', {
      name: 'verona watch',
      description: 'Night guards',
      members: [othelloId],
    });
    expect(group.status).toBe(200);

    const { context, page } = await userPage(env.browser, env.origin, 'cordelia@zulip.com');
    try {
      await page.click('[data-stream="Verona"]');
      await page.fill('#compose-topic', 'plans');
      const field = '#compose-content';

      // A / command at the start of the message, with what it does.
      await page.focus(field);
      await page.keyboard.type('/po');
      expect(await offered(page, 'Commands', '/poll')).toEqual(['> /pollCreate a poll']);
      await page.press(field, 'Enter');
      expect(await page.inputValue(field)).toBe('/poll ');
      await nextFrame(page);
      expect(await page.locator('#compose-mentions').count()).toBe(0);

      // #ver offers Verona; Enter links it.
      await page.fill(field, 'Meet in #ve');
      await page.press(field, 'r');
      expect((await offered(page, 'Channels', 'Verona'))[0]).toMatch(/^> Verona/);
      expect(await page.getAttribute(field, 'aria-activedescendant')).toBe('compose-mentions-0');
      await page.press(field, 'Enter');
      expect(await page.inputValue(field)).toBe('Meet in #**Verona** ');
      await nextFrame(page);

      // A picked channel, then >: its topics, the one created through the API among them.
      await page.keyboard.type('and #ver');
      await offered(page, 'Channels', 'Verona');
      await page.press(field, 'Tab');
      await nextFrame(page);
      await page.keyboard.type('>bal');
      expect(await offered(page, 'Topics', 'balcony scene')).toEqual(['> balcony scene', 'bal']);
      await page.press(field, 'Enter');
      expect(await page.inputValue(field)).toBe('Meet in #**Verona** and #**Verona>balcony scene** ');
      await nextFrame(page);

      // @ offers the group created through the API, after the people; Escape closes the list, the text stays.
      await page.keyboard.type('with @verona');
      expect(await offered(page, 'People and groups to mention', 'verona watch')).toEqual([
        '> verona watchGroup · Night guards',
      ]);
      // The open listbox, its options and the field that controls it pass axe.
      expect(await seriousViolations(page)).toEqual([]);
      await page.press(field, 'Escape');
      expect(await page.locator('#compose-mentions').count()).toBe(0);
      await page.keyboard.type(' ');
      await page.keyboard.press('Backspace');
      await offered(page, 'People and groups to mention', 'verona watch');
      await page.press(field, 'Enter');
      const text = 'Meet in #**Verona** and #**Verona>balcony scene** with @*verona watch* ';
      expect(await page.inputValue(field)).toBe(text);
      await nextFrame(page);

      // Sent (Ctrl+Enter, as enter_sends is off), the message shows the links and the mention, as the server rendered them.
      await page.press(field, 'Control+Enter');
      const shown = '.message .content';
      await page.waitForSelector(`${shown} a.stream >> text=#Verona`);
      await page.waitForSelector(`${shown} a.stream-topic >> text=#Verona > balcony scene`);
      await page.waitForSelector(`${shown} .user-group-mention >> text=@verona watch`);
      const veronaId = (await world.as('cordelia').get('/get_stream_id', { stream: 'Verona' })).body.stream_id;
      const content = await eventually('the sent message', async () => {
        const answer = await world.as('cordelia').get('/messages', {
          anchor: 'newest',
          num_before: 1,
          num_after: 0,
          narrow: JSON.stringify([{ operator: 'topic', operand: 'plans' }]),
        });
        return answer.body.messages?.[0]?.content as string | undefined;
      });
      expect(content).toContain(`<a class="stream" data-stream-id="${veronaId}"`);
      expect(content).toContain(`<a class="stream-topic" data-stream-id="${veronaId}"`);
      expect(content).toContain(`<span class="user-group-mention" data-user-group-id="${group.body.group_id}">`);
    } finally {
      await context.close();
    }
  });
});
