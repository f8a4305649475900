import type { Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';

/** Mention (zerver/webhooks/mention, through Zapier): a new mention of a web feed, quoted, in the topic "news". */

export const mention: Integration = {
  name: 'mention',
  webhookName: 'Mention',
  handle(request) {
    const payload = request.json();
    const title = str(payload.title);
    const url = str(payload.url);
    const description = str(payload.description);
    return { topic: 'news', content: `**[${title}](${url})**:\n\n\`\`\` quote\n${description}\n\`\`\`` };
  },
};
