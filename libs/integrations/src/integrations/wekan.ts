import type { Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';

/**
 * Wekan (zerver/webhooks/wekan): Wekan's own sentence, its last line (the card's URL) made a "See in Wekan" link,
 * in the topic "Wekan Notification".
 */
export const wekan: Integration = {
  name: 'wekan',
  webhookName: 'Wekan',
  handle(request) {
    const text = str(request.json().text);
    const url = text.split('\n').at(-1)!;
    // Without the URL line (the text ends in a newline) nothing is taken out but the newlines.
    const body = (url === '' ? text : text.split(url).join('')).split('\n').join('');
    return { topic: 'Wekan Notification', content: `${body}.\n\n[See in Wekan](${url})` };
  },
};
