import { invalid } from '@confab/errors';
import type { Integration } from '../framework.js';

/**
 * WordPress (zerver/webhooks/wordpress, the HookPress plugin's form fields): posts and pages published, in the topic
 * "WordPress notification". A field the plugin leaves out is written as Zulip's placeholder for it.
 */

export const wordpress: Integration = {
  name: 'wordpress',
  webhookName: 'WordPress',
  notifyOnInvalidJson: false,
  eventTypes: ['publish_post', 'publish_page'],
  handle(request) {
    const param = (name: string, fallback: string) => request.params.get(name) ?? fallback;
    // HookPress may end the last field with a newline.
    const hook = param('hook', 'WordPress action').trimEnd();
    if (hook !== 'publish_post' && hook !== 'publish_page') {
      throw invalid(`Unknown WordPress webhook action: ${hook}`);
    }
    const content =
      `New ${param('post_type', 'post')} published:\n` +
      `* [${param('post_title', 'New WordPress post')}](${param('post_url', 'WordPress post URL')})`;
    return { topic: 'WordPress notification', content, event: hook };
  },
};
