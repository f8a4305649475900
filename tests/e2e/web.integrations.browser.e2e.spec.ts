import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe';
import { eventually, registeredState, SCREENSHOTS, useBrowserWorld, userPage, waitForTitle } from './support/browser';
import { channelIds } from './support/invitations';
import { hookRequest, jsonBody } from './support/webhooks';

jest.setTimeout(240_000);

interface RealmBot {
  user_id: number;
  full_name: string;
  api_key: string;
  bot_type: number;
}

/** A GitHub `ping`, as GitHub sends it when a webhook is added (its hook, the repository, who added it). */
const ping = (login: string) => ({
  zen: 'Keep it logically awesome.',
  hook_id: 4242,
  hook: { type: 'Repository', id: 4242, events: ['push'], active: true },
  repository: {
    id: 77,
    name: 'confab',
    full_name: `${login}/confab`,
    private: false,
    html_url: `https://github.com/${login}/confab`,
  },
  sender: { login, id: 9 },
});

/**
 * Issue 41 §2: the bots and integrations page. A member creates an incoming webhook bot for GitHub into a channel and
 * topic, gets the URL, GitHub's request to it posts into that topic; a new key changes the URL and ends the old one;
 * a member the organization does not let create bots gets no form (and the server refuses anyway).
 */
describe('the web client: incoming webhooks (bots and integrations)', () => {
  const env = useBrowserWorld();
  const suffix = randomBytes(3).toString('hex');
  const botName = `GitHub Bot ${suffix}`;

  /** hamlet's bots as the server has them (POST /register's realm_bots: keys included). */
  const hamletsBot = async () =>
    ((await registeredState(env.world, 'hamlet', ['realm_bot'])).realm_bots as RealmBot[]).find(
      (b) => b.full_name === botName,
    );

  /** Sends GitHub's ping to a URL the page showed (to the gateway, under the URL's own host). */
  const postPing = (url: string, login: string) => {
    const parsed = new URL(url);
    expect(parsed.pathname).toBe('/api/v1/external/github');
    return hookRequest(env.world, `github${parsed.search}`, {
      ...jsonBody(ping(login)),
      headers: { 'content-type': 'application/json', 'X-GitHub-Event': 'ping' },
    });
  };

  const messagesIn = (page: Page) => page.locator('.message').allTextContents();

  it('creates a GitHub bot into #Denmark > commits; the URL posts there; a new key ends the old URL', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      page.on('dialog', (dialog) => void dialog.accept());
      await page.click('#settings-open');
      await page.click('#settings-bots');
      const form = page.locator('.add-bot-form');
      await form.waitFor();
      expect(page.url()).toMatch(/#settings\/your-bots$/);

      // The catalog: searched, then narrowed by category.
      await page.fill('#add-bot-search', 'git');
      await form.locator('li[data-integration="gitlab"]').waitFor();
      expect(await form.locator('li[data-integration="airbrake"]').count()).toBe(0);
      await page.selectOption('#add-bot-category', 'monitoring');
      await form.locator('.integration-count >> text=0 integrations').waitFor();
      await page.selectOption('#add-bot-category', 'version-control');
      await form.locator('li[data-integration="github"] input').check();
      expect(await page.inputValue('#add-bot-full-name')).toBe('GitHub Bot');
      expect(await page.inputValue('#add-bot-short-name')).toBe('github');
      await page.fill('#add-bot-full-name', botName);
      await page.fill('#add-bot-short-name', `github-${suffix}`);
      await page.selectOption('#add-bot-stream', { label: '#Denmark' });
      await page.fill('#add-bot-topic', 'commits');
      // GitHub's events are offered for only_events; left unticked, every event is sent.
      await page.check('#add-bot-some-events');
      await form.locator('.integration-event-list input[value="ping"]').waitFor();
      await page.uncheck('#add-bot-some-events');
      await page.click('#add-bot-create');
      await page.locator(`.add-bot [role="status"] >> text=Bot created: ${botName}`).waitFor();

      // The URL shown: this address, the bot's key, the channel's id and the topic.
      const bot = await eventually('the bot in realm_bots', hamletsBot);
      expect(bot.bot_type).toBe(2);
      const realmUrl = await page.evaluate(() => location.origin);
      expect(realmUrl).toBe(new URL(env.origin).origin);
      const denmark = (await channelIds(env.world.as('hamlet'))).Denmark;
      const shown = page.locator(`.add-bot #webhook-url-${bot.user_id}`);
      expect(await shown.inputValue()).toBe(
        `${realmUrl}/api/v1/external/github?api_key=${bot.api_key}&stream=${denmark}&topic=commits`,
      );
      expect(await page.locator('.add-bot .webhook-hint').textContent()).toMatch(/Settings → Webhooks → Add webhook/);
      await shown.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SCREENSHOTS, 'bots.png') });
      await page.locator('.add-bot .webhook-copy').click();
      await page.locator('.add-bot .webhook-url [role="status"]').waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      // The server's refusal is shown as it comes: the same name again.
      await page.click('#add-bot-create');
      await page.locator('.add-bot [role="alert"] >> text=Name is already in use!').waitFor();

      // GitHub's ping to that URL shows in #Denmark > commits, for hamlet, live.
      const firstUrl = await shown.inputValue();
      await page.goto(`${env.origin}/#narrow/channel/${denmark}-Denmark/topic/commits`);
      await waitForTitle(page, '#Denmark > commits');
      const answer = await postPing(firstUrl, 'ophelia-gh');
      expect([answer.status, answer.body.result, answer.body.msg]).toEqual([200, 'success', '']);
      await page.locator('.message >> text=GitHub webhook has been successfully configured by ophelia-gh.').waitFor();

      // The bot list shows the same URL; a new key changes it, the old URL answers 401, the new one posts.
      await page.goto(`${env.origin}/#settings/your-bots`);
      const item = page.locator(`li.bot-item[data-bot="${botName}"]`);
      const listed = item.locator(`#webhook-url-${bot.user_id}`);
      await listed.waitFor();
      expect(await listed.inputValue()).toBe(firstUrl);
      expect(await seriousViolations(page)).toEqual([]);
      // A second window of hamlet's (this browser, so it knows the URL) follows the new key live (realm_bot).
      const other = await context.newPage();
      await other.goto(`${env.origin}/#settings/your-bots`);
      const otherUrl = other.locator(`li.bot-item[data-bot="${botName}"] #webhook-url-${bot.user_id}`);
      await otherUrl.waitFor();
      expect(await otherUrl.inputValue()).toBe(firstUrl);
      await item.locator('button.bot-regenerate').click();
      await item.locator('[role="status"] >> text=has a new API key').waitFor();
      const renewed = await eventually('the new key', async () => {
        const now = await hamletsBot();
        return now && now.api_key !== bot.api_key ? now : undefined;
      });
      const secondUrl = await listed.inputValue();
      expect(secondUrl).toBe(firstUrl.replace(bot.api_key, renewed.api_key));
      expect(secondUrl).not.toBe(firstUrl);
      await eventually('the other window showing the new URL', async () => (await otherUrl.inputValue()) === secondUrl);

      const refused = await postPing(firstUrl, 'old-key');
      expect([refused.status, refused.body.code, refused.body.msg]).toEqual([
        401,
        'INVALID_API_KEY',
        'Invalid API key',
      ]);
      const accepted = await postPing(secondUrl, 'new-key');
      expect([accepted.status, accepted.body.result, accepted.body.msg]).toEqual([200, 'success', '']);
      await page.goto(`${env.origin}/#narrow/channel/${denmark}-Denmark/topic/commits`);
      await page.locator('.message >> text=GitHub webhook has been successfully configured by new-key.').waitFor();
      expect((await messagesIn(page)).some((t) => t.includes('by old-key'))).toBe(false);
    } finally {
      await context.close();
    }
  });

  it("fits a phone: the form, the URL and the list don't scroll sideways at 390 px", async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com', {
      viewport: { width: 390, height: 844 },
    });
    try {
      await page.goto(`${env.origin}/#settings/your-bots`);
      await page.locator('.add-bot-form li[data-integration="github"] input').check();
      await page.selectOption('#add-bot-stream', { label: '#Denmark' });
      await page.locator('.add-bot-form #add-bot-topic').waitFor();
      // The first test's bot, whose URL this browser did not make: the list offers to make one.
      await page.locator(`li.bot-item[data-bot="${botName}"] button.bot-url-edit`).waitFor();
      const overflow = () =>
        page.evaluate(() => {
          const main = document.querySelector('.bots-page')!;
          return Math.max(document.documentElement.scrollWidth, main.scrollWidth) - window.innerWidth;
        });
      expect(await overflow()).toBeLessThanOrEqual(0);
      expect(await seriousViolations(page)).toEqual([]);

      // Made here from the list: the bot's current key, a DM to its owner (no channel).
      const item = page.locator(`li.bot-item[data-bot="${botName}"]`);
      await item.locator('button.bot-url-edit').click();
      await item.locator('li[data-integration="github"] input').check();
      await item.locator('button.bot-url-save').click();
      const bot = (await hamletsBot())!;
      const realmUrl = await page.evaluate(() => location.origin);
      expect(await item.locator(`#webhook-url-${bot.user_id}`).inputValue()).toBe(
        `${realmUrl}/api/v1/external/github?api_key=${bot.api_key}`,
      );
      expect(await overflow()).toBeLessThanOrEqual(0);
      await page.screenshot({ path: join(SCREENSHOTS, 'phone-bots.png') });
    } finally {
      await context.close();
    }
  });

  it('offers no form to a member the organization does not let create bots, live; the server refuses too', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'cordelia@zulip.com');
    try {
      await page.goto(`${env.origin}/#settings/your-bots`);
      await page.locator('.add-bot-form').waitFor();

      // An administrator lets nobody create bots: the open page takes the form away.
      const groups = (await registeredState(env.world, 'iago', ['realm_user_groups'])).realm_user_groups as {
        id: number;
        name: string;
      }[];
      const nobody = groups.find((g) => g.name === 'role:nobody')!.id;
      const changed = await env.world.as('iago').patch('/realm', {
        can_create_bots_group: JSON.stringify({ new: nobody }),
        can_create_write_only_bots_group: JSON.stringify({ new: nobody }),
      });
      expect(changed.status).toBe(200);
      await page.locator('.bots-not-allowed').waitFor();
      expect(await page.locator('.add-bot-form').count()).toBe(0);

      // Opened afresh: no form either, and the list says there are no bots.
      await page.reload();
      await page.locator('.bots-not-allowed').waitFor();
      expect(await page.locator('#add-bot-create').count()).toBe(0);
      await page.locator('.bots-page >> text=No bots yet.').waitFor();
      expect(await seriousViolations(page)).toEqual([]);

      const refused = await env.world
        .as('cordelia')
        .post('/bots', { full_name: 'Sneaky Bot', short_name: 'sneaky', bot_type: 2 });
      expect([refused.status, refused.body.msg]).toEqual([400, 'Insufficient permission']);
    } finally {
      await context.close();
    }
  });
});
