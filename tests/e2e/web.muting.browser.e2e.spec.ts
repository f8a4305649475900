import type { Page } from 'playwright-core';
import { eventually, registeredState, sendToChannel, useBrowserWorld, userPage, waitForTitle } from './support/browser';

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
