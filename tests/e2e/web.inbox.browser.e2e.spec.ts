import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe';
import {
  channelIdsOf,
  eventually,
  sendToChannel,
  setUpOk as ok,
  useBrowserWorld,
  userPage,
  waitForTitle,
} from './support/browser';

jest.setTimeout(240_000);

/** The Inbox as Zulip's: groups per channel and for direct messages, collapsible, keyboard-navigable, hover actions. */
describe('the web client: the Inbox', () => {
  const env = useBrowserWorld();

  /** The groups as shown, each with its header count and its rows with theirs (a mention shows as "@"). */
  const shown = (page: Page) =>
    page
      .locator('.inbox-group')
      .evaluateAll((groups) =>
        groups.map((g) => [
          g.getAttribute('aria-label'),
          g.querySelector('.inbox-header .unread')?.textContent,
          Array.from(g.querySelectorAll('.inbox-row')).map((r) =>
            [
              r.querySelector('a')?.textContent,
              r.querySelector('.unread')?.textContent,
              r.querySelector('.inbox-mention') ? '@' : '',
            ].join(' '),
          ),
        ]),
      );
  /** The row (its `data-row-key`) that has the keyboard focus. */
  const focused = (page: Page) =>
    page.evaluate(
      () => (document.activeElement?.closest('[data-row-key]') as HTMLElement | null)?.dataset.rowKey ?? null,
    );
  const unreadOf = async (ids: number[]) => {
    const flags = await Promise.all(
      ids.map(async (id) => (await env.world.as('hamlet').get(`/messages/${id}`)).body.message.flags as string[]),
    );
    return flags.filter((f) => !f.includes('read')).length;
  };

  it('groups what is unread, collapses a channel across reloads, moves by keyboard and marks a topic read on hover', async () => {
    const { world } = env;
    expect((await world.as('hamlet').post('/mark_all_as_read')).status).toBe(200);
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      await waitForTitle(page, 'Inbox');
      await page.waitForSelector('.inbox .empty >> text=You have no unread messages.');
      const ghosts = [
        await sendToChannel(world, 'othello', 'Denmark', 'ghosts', 'one'),
        await sendToChannel(world, 'othello', 'Denmark', 'ghosts', 'two'),
      ];
      const masks = await sendToChannel(
        world,
        'othello',
        'Verona',
        'masks',
        `@**${world.user('hamlet').fullName}** who is that?`,
      );
      await sendToChannel(world, 'othello', 'Verona', 'feud', 'A plague');
      const dm = await world
        .as('othello')
        .post('/messages', { type: 'direct', to: JSON.stringify([world.user('hamlet').id]), content: 'A word' });
      expect(dm.status).toBe(200);

      const othello = world.user('othello').fullName;
      const expected = [
        ['Direct messages', '1', [`${othello} 1 `]],
        ['#Denmark', '2', ['ghosts 2 ']],
        ['#Verona', '2', ['feud 1 ', 'masks 1 @']],
      ];
      await eventually('the Inbox to show every unread conversation', async () =>
        JSON.stringify(await shown(page)) === JSON.stringify(expected) ? true : undefined,
      );
      // Each channel's header in its colour.
      const subs = (await world.as('hamlet').get('/users/me/subscriptions')).body.subscriptions as {
        name: string;
        color: string;
      }[];
      const colour = subs.find((s) => s.name === 'Denmark')!.color;
      expect(
        await page
          .locator('[data-inbox-channel="Denmark"]')
          .evaluate((g) => (g as HTMLElement).style.getPropertyValue('--channel-color')),
      ).toBe(colour);
      expect(await seriousViolations(page)).toEqual([]);

      // Collapsing Verona hides its rows, and it stays collapsed after a reload.
      await page.click('[data-inbox-channel="Verona"] .inbox-toggle');
      await page.waitForSelector('[data-inbox-channel="Verona"] .inbox-row', { state: 'detached' });
      expect(await page.getAttribute('[data-inbox-channel="Verona"] .inbox-toggle', 'aria-expanded')).toBe('false');
      await page.reload();
      await page.waitForSelector('[data-inbox-channel="Verona"] .inbox-header .unread >> text=2');
      await page.waitForSelector('[data-inbox-topic="ghosts"]');
      expect(await page.locator('[data-inbox-channel="Verona"] .inbox-row').count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);

      // The keyboard: ↓ walks headers and open rows, → expands, ← collapses back to the header, Enter opens.
      await page.focus('[data-inbox-group="dm"] .inbox-toggle');
      const walk: (string | null)[] = [];
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press('ArrowDown');
        walk.push(await focused(page));
      }
      const denmark = (await page.getAttribute('[data-inbox-channel="Denmark"]', 'data-inbox-group'))!;
      const verona = (await page.getAttribute('[data-inbox-channel="Verona"]', 'data-inbox-group'))!;
      expect(walk).toEqual([`d:${world.user('othello').id}`, denmark, `t:${denmark.slice(2)}:ghosts`, verona]);
      // Only the focused row is in the tab order.
      expect(await page.locator('.inbox-focus[tabindex="0"]').count()).toBe(1);
      await page.keyboard.press('ArrowRight');
      await page.waitForSelector('[data-inbox-channel="Verona"] [data-inbox-topic="feud"]');
      await page.keyboard.press('ArrowDown');
      expect(await focused(page)).toBe(`t:${verona.slice(2)}:feud`);
      await page.keyboard.press('ArrowLeft');
      await page.waitForSelector('[data-inbox-channel="Verona"] .inbox-row', { state: 'detached' });
      expect(await focused(page)).toBe(verona);
      await page.keyboard.press('ArrowRight');
      await page.waitForSelector('[data-inbox-channel="Verona"] [data-inbox-topic="feud"]');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowUp');
      expect(await focused(page)).toBe(verona);
      await page.keyboard.press('ArrowUp');
      expect(await focused(page)).toBe(`t:${denmark.slice(2)}:ghosts`);
      await page.keyboard.press('Enter');
      await waitForTitle(page, '#Denmark > ghosts');
      await page.waitForSelector(`.message[data-id="${ghosts[1]}"]`);
      await page.goBack();
      await waitForTitle(page, 'Inbox');

      // The hover action marks a topic read: its row goes, the channel's count drops, the server has it read.
      const action = page.getByRole('button', { name: 'Mark as read: masks in #Verona' });
      const opacity = () => action.evaluate((b) => getComputedStyle(b).opacity);
      await page.mouse.move(0, 0);
      expect(await opacity()).toBe('0');
      await page.hover('[data-inbox-topic="masks"]');
      await eventually('the action to show on hover', async () => (await opacity()) === '1');
      await action.click();
      await page.waitForSelector('[data-inbox-topic="masks"]', { state: 'detached' });
      await page.waitForSelector('[data-inbox-channel="Verona"] .inbox-header .unread >> text=1');
      expect(await unreadOf([masks])).toBe(0);
      expect(
        await page
          .locator('[data-inbox-channel="Verona"] [data-inbox-topic]')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-inbox-topic'))),
      ).toEqual(['feud']);
    } finally {
      await context.close();
    }
  });

  it('filters the conversations by topic, channel or people from a box above them', async () => {
    const { world } = env;
    expect((await world.as('hamlet').post('/mark_all_as_read')).status).toBe(200);
    await sendToChannel(world, 'othello', 'Denmark', 'castle walls', 'cold');
    await sendToChannel(world, 'othello', 'Verona', 'walls of Verona', 'high');
    await sendToChannel(world, 'othello', 'Verona', 'the balcony', 'moonlight');
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      await waitForTitle(page, 'Inbox');
      const topics = () => page.locator('.inbox-row a').allTextContents();
      await eventually('3 conversations shown', async () => (await topics()).length === 3);
      await page.fill('#inbox-filter', 'WALL');
      await eventually('2 conversations shown', async () => (await topics()).length === 2);
      expect((await topics()).sort()).toEqual(['castle walls', 'walls of Verona']);
      // A channel's name keeps all of its conversations.
      await page.fill('#inbox-filter', 'veron');
      await eventually('2 conversations shown', async () => (await topics()).length === 2);
      expect((await topics()).sort()).toEqual(['the balcony', 'walls of Verona']);
      await page.fill('#inbox-filter', 'nothing like it');
      await page.locator('.inbox .empty >> text=No unread conversation matches').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      // Escape empties it: everything again.
      await page.press('#inbox-filter', 'Escape');
      await eventually('3 conversations shown', async () => (await topics()).length === 3);
      expect(await page.inputValue('#inbox-filter')).toBe('');
    } finally {
      await context.close();
    }
  });

  it('shows all topics, the unmuted ones or the followed ones, as chosen above it, and keeps the choice', async () => {
    const cordelia = env.world.as('cordelia');
    ok(await cordelia.post('/mark_all_as_read'));
    const [scotland, rome] = await channelIdsOf(cordelia, 'Scotland', 'Rome');
    // Scotland: "witches" muted, "battle" followed; Rome muted, its "forum" followed.
    ok(await cordelia.post('/user_topics', { stream_id: scotland, topic: 'witches', visibility_policy: 1 }));
    ok(await cordelia.post('/user_topics', { stream_id: scotland, topic: 'battle', visibility_policy: 3 }));
    const muteRome = (value: boolean) =>
      cordelia.post('/users/me/subscriptions/properties', {
        subscription_data: JSON.stringify([{ stream_id: rome, property: 'is_muted', value }]),
      });
    ok(await muteRome(true));
    ok(await cordelia.post('/user_topics', { stream_id: rome, topic: 'forum', visibility_policy: 3 }));
    for (const [channel, topic] of [
      ['Scotland', 'witches'],
      ['Scotland', 'heath'],
      ['Scotland', 'battle'],
      ['Rome', 'senate'],
      ['Rome', 'forum'],
    ] as const)
      await sendToChannel(env.world, 'othello', channel, topic, `About ${topic}`);
    ok(
      await env.world
        .as('othello')
        .post('/messages', { type: 'direct', to: JSON.stringify([env.world.user('cordelia').id]), content: 'A word' }),
    );
    const othello = env.world.user('othello').fullName;

    const { context, page } = await userPage(env.browser, env.origin, 'cordelia@zulip.com');
    /** The groups and their rows as shown. */
    const listed = () =>
      page
        .locator('.inbox-group')
        .evaluateAll((groups) =>
          groups.map((g) => [
            g.getAttribute('aria-label'),
            ...Array.from(g.querySelectorAll('.inbox-row a')).map((a) => a.textContent),
          ]),
        );
    const shows = (what: string, expected: unknown) =>
      eventually(what, async () => JSON.stringify(await listed()) === JSON.stringify(expected));
    const choose = (label: string) => page.selectOption('#inbox-topics', { label });
    try {
      await waitForTitle(page, 'Inbox');
      // At first the unmuted topics, as the sidebar counts them: no muted topic, nothing of muted Rome but its
      // followed topic.
      expect(await page.locator('#inbox-topics option:checked').textContent()).toBe('Unmuted topics');
      const unmuted = [
        ['Direct messages', othello],
        ['#Rome', 'forum'],
        ['#Scotland', 'battle', 'heath'],
      ];
      await shows('the unmuted topics', unmuted);
      expect(await seriousViolations(page)).toEqual([]);

      await choose('All topics');
      await shows('every topic', [
        ['Direct messages', othello],
        ['#Rome', 'forum', 'senate'],
        ['#Scotland', 'battle', 'heath', 'witches'],
      ]);
      expect(await page.locator('[data-inbox-channel="Scotland"] .inbox-header .unread').textContent()).toBe('3');

      await choose('Followed topics');
      await shows('the followed topics', [
        ['#Rome', 'forum'],
        ['#Scotland', 'battle'],
      ]);
      // The filter box narrows the chosen topics.
      await page.fill('#inbox-filter', 'bat');
      await shows('the followed topics matching “bat”', [['#Scotland', 'battle']]);
      await page.press('#inbox-filter', 'Escape');

      // The choice stays across a reload; reading the followed topics empties the view, which says so.
      await page.reload();
      await waitForTitle(page, 'Inbox');
      expect(await page.locator('#inbox-topics option:checked').textContent()).toBe('Followed topics');
      await shows('the followed topics after a reload', [
        ['#Rome', 'forum'],
        ['#Scotland', 'battle'],
      ]);
      ok(await cordelia.post('/mark_topic_as_read', { stream_id: rome, topic_name: 'forum' }));
      ok(await cordelia.post('/mark_topic_as_read', { stream_id: scotland, topic_name: 'battle' }));
      await page.locator('.inbox .empty >> text=No unread messages in topics you follow.').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      // Unmuting Rome (an event) brings its senate into the unmuted topics.
      await choose('Unmuted topics');
      await shows('the unmuted topics left', [
        ['Direct messages', othello],
        ['#Scotland', 'heath'],
      ]);
      ok(await muteRome(false));
      await shows('Rome unmuted', [
        ['Direct messages', othello],
        ['#Rome', 'senate'],
        ['#Scotland', 'heath'],
      ]);
    } finally {
      await context.close();
    }
  });
});
