import type { Page } from 'playwright-core';
import { seriousViolations } from './support/axe';
import { eventually, registeredState, useBrowserWorld, userPage } from './support/browser';

jest.setTimeout(240_000);

/** Issue 45: the compose box's formatting buttons and shortcuts, and the choice of what sends in Send's menu. */
describe('the web client: formatting a message, and choosing what sends', () => {
  const env = useBrowserWorld();
  const field = '#compose-content';
  const openTopic = async (page: Page, topic: string) => {
    await page.goto(`${env.origin}/#narrow/channel/Verona/topic/${topic}`);
    await page.locator(field).waitFor();
  };
  /** The message field's text with its selection marked: `[selected]`, or `|` for the cursor. */
  const marked = (page: Page) =>
    page.$eval(field, (el: HTMLTextAreaElement) => {
      const { value, selectionStart: a, selectionEnd: b } = el;
      return a === b
        ? `${value.slice(0, a)}|${value.slice(a)}`
        : `${value.slice(0, a)}[${value.slice(a, b)}]${value.slice(b)}`;
    });
  /** Selects the first `text` in the message field. */
  const select = (page: Page, text: string) =>
    page.$eval(
      field,
      (el: HTMLTextAreaElement, t) => {
        const at = el.value.indexOf(t);
        el.focus();
        el.setSelectionRange(at, at + t.length);
      },
      text,
    );
  const enterSends = async () =>
    (await registeredState(env.world, 'hamlet', ['user_settings'])).user_settings.enter_sends as boolean;

  it('formats the selection from the toolbar and by Zulip’s shortcuts, and the message shows it formatted', async () => {
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    try {
      await openTopic(page, 'formatting');
      // Each button named for what it does, its shortcut in its title.
      const formatting = page.getByRole('group', { name: 'Formatting' });
      const button = (name: string) => formatting.getByRole('button', { name, exact: true });
      const names = ['Bold', 'Italic', 'Link', 'Code', 'Quote', 'Bulleted list', 'Numbered list'];
      expect(await formatting.getByRole('button').count()).toBe(names.length);
      expect(await Promise.all(names.map((name) => button(name).getAttribute('title')))).toEqual([
        'Bold (Ctrl+B)',
        'Italic (Ctrl+I)',
        'Link (Ctrl+Shift+L)',
        'Code',
        'Quote',
        'Bulleted list',
        'Numbered list',
      ]);
      // The box stays compact with them (it was 275 px before issue 45's compact compose).
      expect((await page.locator('form.compose').boundingBox())!.height).toBeLessThan(120);
      expect(await seriousViolations(page)).toEqual([]);

      // Bold from the button: the selection wrapped and still selected, the focus still in the field; again: undone.
      await page.fill(field, 'Hello world');
      await select(page, 'world');
      await button('Bold').click();
      expect(await marked(page)).toBe('Hello **[world]**');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('compose-content');
      await button('Bold').click();
      expect(await marked(page)).toBe('Hello [world]');
      // Ctrl+B and Ctrl+I as in Zulip.
      await page.keyboard.press('Control+b');
      expect(await marked(page)).toBe('Hello **[world]**');
      await page.keyboard.press('Control+i');
      expect(await marked(page)).toBe('Hello ***[world]***');
      await page.keyboard.press('Control+b');
      await page.keyboard.press('Control+i');
      expect(await marked(page)).toBe('Hello [world]');

      // Nothing selected: a placeholder to type over. Ctrl+Shift+L makes a link.
      await page.fill(field, '');
      await page.keyboard.press('Control+Shift+L');
      expect(await marked(page)).toBe('[[link text]](url)');
      await page.keyboard.type('the docs');
      await select(page, 'url');
      await page.keyboard.type('https://example.com/docs');
      expect(await page.inputValue(field)).toBe('[the docs](https://example.com/docs)');

      // A whole message from the buttons: bold, italic, code, a quote, a bulleted and a numbered list.
      await page.fill(field, 'Plan: strong calm run\nread\nwrite\nfirst\nsecond\nTo be or not');
      for (const [text, name] of [
        ['strong', 'Bold'],
        ['calm', 'Italic'],
        ['run', 'Code'],
        ['read\nwrite', 'Bulleted list'],
        ['first\nsecond', 'Numbered list'],
        ['To be or not', 'Quote'],
      ] as const) {
        await select(page, text);
        await button(name).click();
      }
      const content = await page.inputValue(field);
      expect(content).toBe(
        'Plan: **strong** *calm* `run`\n- read\n- write\n1. first\n2. second\n```quote\nTo be or not\n```',
      );
      await page.keyboard.press('Control+Enter');
      const message = page.locator('.message .content', { hasText: 'To be or not' }).last();
      await message.waitFor();
      expect(await page.inputValue(field)).toBe('');
      // What the reader sees: the formatting, not the Markdown.
      expect(
        await message.evaluate((c) => ({
          bold: c.querySelector('strong')?.textContent,
          italic: c.querySelector('em')?.textContent,
          code: c.querySelector('code')?.textContent,
          bullets: Array.from(c.querySelectorAll('ul > li')).map((li) => li.textContent),
          numbers: Array.from(c.querySelectorAll('ol > li')).map((li) => li.textContent),
          quote: c.querySelector('blockquote')?.textContent?.trim(),
          stars: c.textContent?.includes('*'),
        })),
      ).toEqual({
        bold: 'strong',
        italic: 'calm',
        code: 'run',
        bullets: ['read', 'write'],
        numbers: ['first', 'second'],
        quote: 'To be or not',
        stars: false,
      });
    } finally {
      await context.close();
    }
  });

  it('lets the person choose Enter or Ctrl+Enter to send in Send’s menu, saved as their enter_sends setting', async () => {
    expect(await enterSends()).toBe(false);
    const { context, page } = await userPage(env.browser, env.origin, 'hamlet@zulip.com');
    const choices = () =>
      page
        .locator('#compose-send-options [role="menuitemradio"]')
        .evaluateAll((items) => items.map((i) => [i.textContent, i.getAttribute('aria-checked')]));
    try {
      await openTopic(page, 'sending');
      await page.click('#compose-send-menu');
      // Beside the send-later entries, Zulip's choice, Ctrl+Enter (the default) ticked.
      expect(await page.locator('#compose-send-options [role="menuitem"]').count()).toBe(2);
      expect(await choices()).toEqual([
        ['Enter sends', 'false'],
        ['✓Ctrl+Enter sends', 'true'],
      ]);
      expect(await seriousViolations(page)).toEqual([]);
      await page.click('#compose-send-options .enter-sends');
      await page.locator('#compose-send-options').waitFor({ state: 'detached' });
      await eventually('enter_sends saved on the server', async () => (await enterSends()) === true);
      expect(await page.getAttribute('#compose-send', 'title')).toBe('Send (Enter)');

      // Now Enter sends, and Shift+Enter is a new line.
      await page.fill(field, 'First line');
      await page.focus(field);
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('second line');
      expect(await page.inputValue(field)).toBe('First line\nsecond line');
      await page.keyboard.press('Enter');
      await page.locator('.message .content', { hasText: 'second line' }).waitFor();
      expect(await page.inputValue(field)).toBe('');

      // After a reload (from /register) the menu shows the choice; by keyboard, ArrowUp opens it on its last item.
      await page.reload();
      await page.locator(field).waitFor();
      await page.focus('#compose-send-menu');
      await page.keyboard.press('ArrowUp');
      await page.waitForFunction(() => document.activeElement?.classList.contains('ctrl-enter-sends'));
      expect(await choices()).toEqual([
        ['✓Enter sends', 'true'],
        ['Ctrl+Enter sends', 'false'],
      ]);
      await page.keyboard.press('Enter');
      await page.locator('#compose-send-options').waitFor({ state: 'detached' });
      await eventually('enter_sends off again on the server', async () => (await enterSends()) === false);
      expect(await page.getAttribute('#compose-send', 'title')).toBe('Send (Ctrl+Enter)');
      // Enter is a new line again; Ctrl+Enter sends.
      await page.fill(field, 'Again');
      await page.focus(field);
      await page.keyboard.press('Enter');
      expect(await page.inputValue(field)).toBe('Again\n');
      await page.keyboard.type('and again');
      await page.keyboard.press('Control+Enter');
      await page.locator('.message .content', { hasText: 'and again' }).waitFor();
      expect(await page.inputValue(field)).toBe('');
    } finally {
      await context.close();
    }
  });
});
