import type { Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';

/**
 * Canarytokens of canarytokens.org (zerver/webhooks/canarytoken; Thinkst's paid product is `thinkst`): a token
 * triggered, with its memo and a link to manage it, in the topic "canarytoken alert".
 */
export const canarytoken: Integration = {
  name: 'canarytoken',
  webhookName: 'Canarytokens',
  handle(request) {
    const message = request.json();
    const time = str(message.time);
    const content =
      `**:alert: Canarytoken has been triggered on ${time}!**\n\n` +
      `${str(message.memo)} \n\n` +
      `[Manage this canarytoken](${str(message.manage_url)})`;
    return { topic: 'canarytoken alert', content };
  },
};
