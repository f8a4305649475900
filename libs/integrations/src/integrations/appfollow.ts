import type { Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';

/**
 * Zulip's convert_markdown for AppFollow's Slack-style text: `*bold*`, `_italic_` and `~strike~` as Zulip's
 * Markdown (Python's `\b` is Unicode-aware: a word character is any letter, digit or `_`).
 */
export function convertAppfollowMarkdown(text: string): string {
  return text
    .replace(/(?<=\s|^)\*(.+?\S)\*(?=\s|$)/gu, '**$1**')
    .replace(/(?<![\p{L}\p{N}_])_(\s*)(.+?)(\s*)_(?![\p{L}\p{N}_])/gu, '$1*$2*$3')
    .replace(/(?<=\s|^)~(.+?\S)~(?=\s|$)/gu, '~~$1~~');
}

/** AppFollow (zerver/webhooks/appfollow): a review or notice, in the topic of its first line (the app's name). */
export const appfollow: Integration = {
  name: 'appfollow',
  webhookName: 'AppFollow',
  handle(request) {
    const message = str(request.json().text);
    const firstLine = /^.+/u.exec(message);
    // Zulip asserts the text starts with a line: without one the payload is not AppFollow's.
    if (!firstLine) throw new TypeError('no first line');
    return { topic: firstLine[0], content: convertAppfollowMarkdown(message) };
  },
};
