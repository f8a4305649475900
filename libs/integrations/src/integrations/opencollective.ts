import type { Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';

/** Open Collective (zerver/webhooks/opencollective): a new member's donation, in the topic "New Member". */

export const opencollective: Integration = {
  name: 'opencollective',
  webhookName: 'OpenCollective',
  handle(request) {
    const payload = request.json();
    const name = str(payload.data.member.memberCollective.name);
    const amount = str(payload.data.order.formattedAmount);
    const content =
      name === 'Incognito'
        ? `An **Incognito** member donated **${amount}**! :tada:`
        : `@_**${name}** donated **${amount}**! :tada:`;
    return { topic: 'New Member', content };
  },
};
