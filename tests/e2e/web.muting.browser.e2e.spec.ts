import type { Page } from 'playwright-core';
import {
  channelIdsOf,
  eventually,
  registeredState,
  sendToChannel,
  setUpOk as ok,
  useBrowserWorld,
  userPage,
  waitForTitle,
} from './support/browser';

jest.setTimeout(240_000);

/** Issue 28, mute and star: topics and channels muted and unmuted, topics followed, messages starred. */
describe('the web client: mute, follow and star', () => {
  const env = useBrowserWorld();

  const send = (to: string, topic: string, content: string) => sendToChannel(env.world, 'othello', to, topic, content);
  const titleCount = (page: Page) => page.evaluate(() => Number(/^\((\d+)\)/.exec(document.title)?.[1] ?? 0));
  /** Hamlet's topic policies and muted channels as the server has them. */
  const policies = async () => {
    const state = { body: await registeredState(env.world, 'hamlet', ['user_topic']) };
    return Object.fromEntries(
      (state.body.user_topics as { topic_name: string; visibility_policy: number }[]).map((t) => [
        t.topic_name,
        t.visibility_policy,
      ]),
    );
  };
  const channelMuted = async (name: string) => {
    const subs = (await env.world.as('hamlet').get('/users/me/subscriptions')).body.subscriptions as {
      name: string;
      is_muted: boolean;
    }[];
    return subs.find((s) => s.name === name)?.is_muted;
  };

  it('mutes and follows topics and mutes channels; the other window and the title count follow', async () => {
    expect((await env.world.as('hamlet').post('/mark_all_as_read')).status).toBe(200);
    await send('Denmark', 'ghosts', 'Something is rotten');
    await send('Denmark', 'graves', 'Alas');
    const a = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    const b = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      await a.page.click('[data-stream="Denmark"]');
      await a.page.click('[data-topic="ghosts"]');
      await waitForTitle(a.page, '#Denmark > ghosts');
      await a.page.click('#mute-topic');
      await a.page.waitForSelector('#mute-topic[aria-pressed="true"] >> text=Unmute topic');
      await eventually('the server to have the topic muted', async () => (await policies()).ghosts === 1);

      // The other window of the same person shows the topic muted, and leaves it out of the title's count.
      await b.page.click('[data-stream="Denmark"]');
      await b.page.waitForSelector('[data-topic="ghosts"][data-policy="1"]');
      await b.page.click('[data-view="inbox"]');
      await waitForTitle(b.page, 'Inbox');
      const before = await titleCount(b.page);
      await send('Denmark', 'ghosts', 'Muted words');
      await send('Verona', 'balcony', 'Counted words');
      await b.page.waitForSelector('[data-stream="Verona"] .unread >> text=1');
      expect(await titleCount(b.page)).toBe(before + 1);

      // Following another topic.
      await a.page.click('[data-topic="graves"]');
      await waitForTitle(a.page, '#Denmark > graves');
      await a.page.click('#follow-topic');
      await a.page.waitForSelector('#follow-topic[aria-pressed="true"] >> text=Unfollow topic');
      await eventually('the server to have the topic followed', async () => (await policies()).graves === 3);
      await b.page.click('[data-stream="Denmark"]');
      await b.page.waitForSelector('[data-topic="graves"] .followed');

      // Unmuting the topic.
      await a.page.click('[data-topic="ghosts"]');
      await a.page.click('#mute-topic');
      await a.page.waitForSelector('#mute-topic[aria-pressed="false"] >> text=Mute topic');
      await eventually('the server to have the topic unmuted', async () => (await policies()).ghosts === undefined);

      // Muting and unmuting a channel.
      await a.page.click('[data-stream="Verona"]');
      await waitForTitle(a.page, '#Verona');
      await a.page.click('#mute-channel');
      await a.page.waitForSelector('#mute-channel >> text=Unmute channel');
      expect(await eventually('Verona muted on the server', async () => await channelMuted('Verona'))).toBe(true);
      await b.page.waitForSelector('[data-stream="Verona"].muted');
      await a.page.click('#mute-channel');
      await a.page.waitForSelector('#mute-channel >> text=Mute channel');
      await eventually('Verona unmuted on the server', async () => (await channelMuted('Verona')) === false);
      await b.page.waitForSelector('[data-stream="Verona"]:not(.muted)');
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it('keeps muted topics and muted channels out of the Inbox; its counts agree with the sidebar and the title', async () => {
    const cordelia = env.world.as('cordelia');
    ok(await cordelia.post('/mark_all_as_read'));
    const [scotland, rome] = await channelIdsOf(cordelia, 'Scotland', 'Rome');
    // A muted topic in Scotland; Rome muted, but its "forum" followed (so it shows).
    ok(await cordelia.post('/user_topics', { stream_id: scotland, topic: 'witches', visibility_policy: 1 }));
    ok(
      await cordelia.post('/users/me/subscriptions/properties', {
        subscription_data: JSON.stringify([{ stream_id: rome, property: 'is_muted', value: true }]),
      }),
    );
    ok(await cordelia.post('/user_topics', { stream_id: rome, topic: 'forum', visibility_policy: 3 }));
    await send('Scotland', 'witches', 'Double, double toil and trouble');
    await send('Scotland', 'witches', 'Fire burn and cauldron bubble');
    await send('Scotland', 'heath', 'So foul and fair a day');
    await send('Rome', 'senate', 'Beware the ides of March');
    await send('Rome', 'senate', 'Et tu');
    await send('Rome', 'forum', 'Friends, Romans, countrymen');
    ok(
      await env.world
        .as('othello')
        .post('/messages', { type: 'direct', to: JSON.stringify([env.world.user('cordelia').id]), content: 'A word' }),
    );

    const { context, page } = await userPage(env.browser, env.origin, 'cordelia@zulip.com');
    const inboxTopics = (channel: string) =>
      page
        .locator(`[data-inbox-channel="${channel}"] [data-inbox-topic]`)
        .evaluateAll((rows) =>
          rows.map((r) => [r.getAttribute('data-inbox-topic'), Number(r.querySelector('.unread')?.textContent)]),
        );
    const inboxChannel = async (channel: string) =>
      Number(await page.locator(`[data-inbox-channel="${channel}"] h3 .unread`).textContent());
    const sidebar = async (channel: string) =>
      Number((await page.locator(`[data-stream="${channel}"] .unread`).textContent({ timeout: 1000 })) ?? 0);
    /** Every count the Inbox shows, added up: its topics and its direct messages. */
    const inboxTotal = () =>
      page
        .locator('.inbox .inbox-row .unread')
        .evaluateAll((counts) => counts.reduce((n, c) => n + Number(c.textContent), 0));
    try {
      await waitForTitle(page, 'Inbox');
      await page.locator('[data-inbox-channel="Rome"]').waitFor();
      expect(await inboxTopics('Scotland')).toEqual([['heath', 1]]);
      expect(await inboxTopics('Rome')).toEqual([['forum', 1]]);
      expect([await inboxChannel('Scotland'), await sidebar('Scotland')]).toEqual([1, 1]);
      expect([await inboxChannel('Rome'), await sidebar('Rome')]).toEqual([1, 1]);
      expect(await inboxTotal()).toBe(3);
      expect(await titleCount(page)).toBe(3);

      // Recent conversations leaves the muted topic and the muted channel's other topic out until asked for.
      const recentRows = () =>
        page.locator('.recent-row').evaluateAll((rows) =>
          rows
            .filter((r) => /^#(Rome|Scotland) > /.test(r.getAttribute('data-conversation')!))
            .map((r) => [r.getAttribute('data-conversation'), Number(r.querySelector('.unread')?.textContent ?? 0)])
            .sort(),
        );
      await page.click('[data-view="recent"]');
      await page.waitForSelector('.recent-row[data-conversation="#Scotland > heath"]');
      expect(await recentRows()).toEqual([
        ['#Rome > forum', 1],
        ['#Scotland > heath', 1],
      ]);
      await page.check('.recent-filter input');
      await page.waitForSelector('.recent-row.muted[data-conversation="#Scotland > witches"]');
      expect(await recentRows()).toEqual([
        ['#Rome > forum', 1],
        ['#Rome > senate', 2],
        ['#Scotland > heath', 1],
        ['#Scotland > witches', 2],
      ]);
      await page.click('[data-view="inbox"]');
      await waitForTitle(page, 'Inbox');

      // Live: another message in the muted topic changes nothing; one in a shown topic counts everywhere.
      await send('Scotland', 'witches', 'By the pricking of my thumbs');
      await send('Scotland', 'heath', 'When shall we three meet again');
      await page.waitForSelector('[data-inbox-topic="heath"] .unread >> text=2');
      expect(await inboxTopics('Scotland')).toEqual([['heath', 2]]);
      expect([await inboxChannel('Scotland'), await sidebar('Scotland')]).toEqual([2, 2]);
      expect(await inboxTotal()).toBe(4);
      expect(await titleCount(page)).toBe(4);

      // Unmuting Rome (elsewhere) brings its other topic back, in the Inbox, the sidebar and the title.
      ok(
        await cordelia.post('/users/me/subscriptions/properties', {
          subscription_data: JSON.stringify([{ stream_id: rome, property: 'is_muted', value: false }]),
        }),
      );
      await page.waitForSelector('[data-inbox-channel="Rome"] [data-inbox-topic="senate"] .unread >> text=2');
      expect([await inboxChannel('Rome'), await sidebar('Rome')]).toEqual([3, 3]);
      expect(await inboxTotal()).toBe(6);
      expect(await titleCount(page)).toBe(6);
    } finally {
      await context.close();
    }
  });

  it('stars a message; the other window shows it starred and in its Starred view', async () => {
    const id = await send('Verona', 'stars', 'Two of the fairest stars in all the heaven');
    const a = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    const b = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      for (const { page } of [a, b]) {
        await page.goto(`${env.origin}/#narrow/channel/Verona/topic/stars`);
        await page.waitForSelector(`.message[data-id="${id}"]`);
      }
      await a.page.click(`.message[data-id="${id}"] button.star`);
      await b.page.waitForSelector(`.message[data-id="${id}"] button.star[aria-pressed="true"]`);
      const flags = (await env.world.as('hamlet').get(`/messages/${id}`)).body.message.flags as string[];
      expect(flags).toContain('starred');
      await b.page.click('[data-view="starred"]');
      await waitForTitle(b.page, 'Starred messages');
      await b.page.waitForSelector(`.message[data-id="${id}"]`);
      await b.page.click(`.message[data-id="${id}"] button.star`);
      await a.page.waitForSelector(`.message[data-id="${id}"] button.star[aria-pressed="false"]`);
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });
});
