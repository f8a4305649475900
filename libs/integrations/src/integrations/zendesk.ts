import type { Integration } from '../framework.js';
import { requiredParam } from '../toolkit/params.js';

/**
 * Zendesk (zerver/webhooks/zendesk): a trigger's message, as the Zendesk target's template words it, in the topic
 * "#<id>: <title>" cut to 60 characters. Zendesk authenticates with HTTP Basic (the catalog's `auth`).
 */

/** The text cut to `length` characters, its end "..." when it was longer. */
function truncate(text: string, length: number): string {
  const chars = Array.from(text);
  return chars.length > length ? `${chars.slice(0, length - 3).join('')}...` : text;
}

export const zendesk: Integration = {
  name: 'zendesk',
  webhookName: 'Zendesk',
  // Zulip's authenticated_rest_api_view (HTTP Basic) tells the owner nothing of a body that is not JSON; Zendesk's
  // fields are form fields, so such a body is only missing them.
  notifyOnInvalidJson: false,
  handle(request) {
    const title = requiredParam(request, 'ticket_title');
    const id = requiredParam(request, 'ticket_id');
    const message = requiredParam(request, 'message');
    return { topic: truncate(`#${id}: ${title}`, 60), content: message };
  },
};
