import { unsupportedEvent, type Integration } from '../framework.js';
import { int, str } from '../toolkit/wild.js';
import { bool, getOr } from '../toolkit/validators.js';

/**
 * GoSquared (zerver/webhooks/gosquared): a traffic spike or dip of a site, and live chat messages (not the private
 * ones). GoSquared names no event: it is read from the payload's fields.
 */
export const gosquared: Integration = {
  name: 'gosquared',
  webhookName: 'GoSquared',
  eventTypes: ['chat_message', 'traffic_spike'],
  handle(request) {
    const payload = request.json();
    if ('concurrents' in payload && 'siteDetails' in payload) {
      const domain = str(payload.siteDetails.domain);
      const visitors = int(payload.concurrents);
      const account = str(payload.siteDetails.acct);
      return {
        topic: `GoSquared - ${domain}`,
        content: `[${domain}](https://www.gosquared.com/now/${account}) has ${visitors} visitors online.`,
        event: 'traffic_spike',
      };
    }
    if (getOr(payload, 'message') !== null && getOr(payload, 'person') !== null) {
      // Direct messages of a chat stay private.
      if (bool(payload.message.private)) return null;
      const title = str(payload.message.session.title);
      const status = str(payload.person.status);
      const name = str(payload.person._anon.name);
      const content = str(payload.message.content);
      return {
        topic: `Live chat session - ${title}`,
        content: `The ${status} **${name}** messaged:\n\n\`\`\` quote\n${content}\n\`\`\``,
        event: 'chat_message',
      };
    }
    unsupportedEvent('unknown_event');
  },
};
