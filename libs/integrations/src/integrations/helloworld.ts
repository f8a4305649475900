import type { Integration } from '../framework.js';

/** Zulip's example integration (zerver/webhooks/helloworld): a greeting and the day's featured Wikipedia article. */
export const helloworld: Integration = {
  name: 'helloworld',
  webhookName: 'HelloWorld',
  handle(request) {
    const payload = request.json();
    const featured = `**[${payload.featured_title}](${payload.featured_url})**`;
    return {
      topic: 'Hello World',
      content: `Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is ${featured}`,
    };
  },
};
