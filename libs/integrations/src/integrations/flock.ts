import type { Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';

/** Flock (zerver/webhooks/flock): a message's text, or when it has none its notification, as it is. */
export const flock: Integration = {
  name: 'flock',
  webhookName: 'Flock',
  handle(request) {
    const payload = request.json();
    const text = str(payload.text);
    return { topic: 'Flock notifications', content: text.length !== 0 ? text : str(payload.notification) };
  },
};
