import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe';
import { useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(180_000);

const vote = (page: Page, option: string) =>
  page.locator(`.poll-widget .poll-option[data-option="${option}"] .poll-vote`);

/** Polls from the compose box, shown as Zulip's poll widget and kept live for everyone reading them. */
describe('the web client: polls', () => {
  const env = useBrowserWorld();

  it('sends a poll from the compose box; votes, new options and question edits show live for both readers', async () => {
    const { world, browser, origin } = env;
    const hamlet = await userPage(browser, origin, 'hamlet@zulip.com');
    const othello = await userPage(browser, origin, 'othello@zulip.com');
    try {
      const { page } = hamlet;
      await page.click('[data-stream="Denmark"]');
      await page.fill('#compose-topic', 'lunch poll');
      await page.fill('#compose-content', '/poll Lunch?\nPizza\nSushi');
      await page.click('#compose-send');
      const widget = page.locator('.poll-widget[aria-label="Poll: Lunch?"]');
      await widget.waitFor();
      expect(await widget.locator('.poll-question').textContent()).toBe('Lunch?');
      expect(await widget.locator('.poll-option-text').allTextContents()).toEqual(['Pizza', 'Sushi']);
      expect(await vote(page, 'Sushi').getAttribute('aria-label')).toBe('Sushi: 0 votes');
      const id = Number(await page.locator('.message', { has: widget }).getAttribute('data-id'));
      expect(id).toBeGreaterThan(0);

      // Othello, in a browser of his own, votes for Sushi: Hamlet's page counts it without a reload.
      const other = othello.page;
      await other.click('[data-stream="Denmark"]');
      await vote(other, 'Sushi').waitFor();
      expect(await other.locator('.poll-edit').count()).toBe(0);
      await vote(other, 'Sushi').click();
      await page.locator('.poll-option[data-option="Sushi"] .poll-vote[aria-label="Sushi: 1 vote"]').waitFor();
      expect(await vote(page, 'Sushi').getAttribute('title')).toContain('Othello');
      expect(await vote(page, 'Sushi').getAttribute('aria-pressed')).toBe('false');
      await other.locator('.poll-option[data-option="Sushi"] .poll-vote[aria-pressed="true"]').waitFor();

      // Hamlet adds Soup and votes for it; Othello sees both.
      await page.fill('.poll-option-input', 'Soup');
      await page.click('.poll-add button[type="submit"]');
      await vote(page, 'Soup').waitFor();
      expect(await page.inputValue('.poll-option-input')).toBe('');
      await vote(page, 'Soup').click();
      await other.locator('.poll-option[data-option="Soup"] .poll-vote[aria-label="Soup: 1 vote"]').waitFor();
      expect(await other.locator('.poll-widget .poll-option-text').allTextContents()).toEqual([
        'Pizza',
        'Sushi',
        'Soup',
      ]);

      // Othello takes his vote back.
      await vote(other, 'Sushi').click();
      await page.locator('.poll-option[data-option="Sushi"] .poll-vote[aria-label="Sushi: 0 votes"]').waitFor();

      // The author edits the question.
      await page.click('.poll-edit');
      await page.fill('.poll-question-input', 'Lunch on Friday?');
      await page.click('.poll-head button[type="submit"]');
      await other.locator('.poll-widget[aria-label="Poll: Lunch on Friday?"]').waitFor();

      // The server has the same story: the widget, then each update in order.
      const [me, him] = await Promise.all([world.as('hamlet').get('/users/me'), world.as('othello').get('/users/me')]);
      const read = await world.as('hamlet').get(`/messages/${id}`);
      expect(read.status).toBe(200);
      const subs = (read.body.message.submessages as { sender_id: number; msg_type: string; content: string }[]).map(
        (s) => [s.sender_id, s.msg_type, JSON.parse(s.content)],
      );
      const hamletId = me.body.user_id as number;
      const othelloId = him.body.user_id as number;
      expect(subs).toEqual([
        [hamletId, 'widget', { widget_type: 'poll', extra_data: { question: 'Lunch?', options: ['Pizza', 'Sushi'] } }],
        [othelloId, 'widget', { type: 'vote', key: 'canned,1', vote: 1 }],
        [hamletId, 'widget', { type: 'new_option', idx: 1, option: 'Soup' }],
        [hamletId, 'widget', { type: 'vote', key: `${hamletId},1`, vote: 1 }],
        [othelloId, 'widget', { type: 'vote', key: 'canned,1', vote: -1 }],
        [hamletId, 'widget', { type: 'question', question: 'Lunch on Friday?' }],
      ]);

      expect(await seriousViolations(page)).toEqual([]);
      expect(await seriousViolations(other)).toEqual([]);
    } finally {
      await hamlet.context.close();
      await othello.context.close();
    }
  });
  it('sends a to-do list from the compose box; tasks checked and added show live', async () => {
    const { world, browser, origin } = env;
    const { context, page } = await userPage(browser, origin, 'hamlet@zulip.com');
    try {
      await page.click('[data-stream="Denmark"]');
      await page.fill('#compose-topic', 'moving');
      await page.fill('#compose-content', '/todo Moving day\nPack books: the heavy ones first\nReturn keys');
      await page.click('#compose-send');
      const widget = page.locator('.todo-widget[aria-label="To-do list: Moving day"]');
      await widget.waitFor();
      expect(await widget.locator('.todo-task-name').allTextContents()).toEqual(['Pack books', 'Return keys']);
      expect(await widget.locator('.todo-task-desc').allTextContents()).toEqual([': the heavy ones first']);
      const id = Number(await page.locator('.message', { has: widget }).getAttribute('data-id'));
      const keys = page.locator('.todo-task[data-task="Return keys"] input[type="checkbox"]');
      expect(await keys.isChecked()).toBe(false);

      // Othello checks a task through the API: it shows checked on Hamlet's page.
      const struck = await world.as('othello').post('/submessage', {
        message_id: id,
        msg_type: 'widget',
        content: JSON.stringify({ type: 'strike', key: '1,canned' }),
      });
      expect(struck.status).toBe(200);
      await page.locator('.todo-task.done[data-task="Return keys"]').waitFor();
      expect(await keys.isChecked()).toBe(true);

      // Hamlet adds a task and checks the first one.
      await page.fill('.todo-task-input', 'Sweep');
      await page.click('.todo-widget .poll-add button[type="submit"]');
      await page.locator('.todo-task[data-task="Sweep"]').waitFor();
      // The check shows at once (optimistically), before the server has stored it: wait for the server's answer.
      const stored = page.waitForResponse((r) => r.url().endsWith('/json/submessage') && r.request().method() === 'POST');
      await page.locator('.todo-task[data-task="Pack books"] input[type="checkbox"]').click();
      await page.locator('.todo-task.done[data-task="Pack books"]').waitFor();
      expect((await stored).status()).toBe(200);

      const read = await world.as('othello').get(`/messages/${id}`);
      const updates = (read.body.message.submessages as { content: string }[])
        .slice(1)
        .map((s) => JSON.parse(s.content));
      expect(updates).toEqual([
        { type: 'strike', key: '1,canned' },
        { type: 'new_task', key: 1, task: 'Sweep', desc: '', completed: false },
        { type: 'strike', key: '0,canned' },
      ]);
      expect(await seriousViolations(page)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
