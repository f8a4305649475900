import { invalid } from '@confab/errors';
import type { Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';
import { jsonParam } from './ops-shared.js';

/**
 * Papertrail (zerver/webhooks/papertrail): a saved search's new matches (form field `payload`, JSON), the first
 * four of them quoted and a link to the rest, in the topic "logs".
 */

export const papertrail: Integration = {
  name: 'papertrail',
  webhookName: 'Papertrail',
  handle(request) {
    const payload = jsonParam(request, 'payload');
    if (typeof payload !== 'object' || payload === null || !('events' in payload)) {
      throw invalid('Events key is missing from payload');
    }
    const search = payload.saved_search;
    const url = str(search.html_search_url);
    const events = payload.events as unknown[];
    const lines = [`[Search for "${str(search.name)}"](${url}) found **${events.length}** matches:\n`];
    for (const [i, event] of (events as { [key: string]: unknown }[]).entries()) {
      lines.push(
        `${str(event.display_received_at)} - ${str(event.source_name)} - ${str(search.query)}:\n` +
          `\`\`\` quote\n${str(event.message)}\n\`\`\``,
      );
      if (i >= 3) {
        lines.push(`[See more](${url})`);
        break;
      }
    }
    return { topic: 'logs', content: lines.join('\n') };
  },
};
