import type { Integration, Json } from '../framework.js';
import { convertHtmlToMarkdown } from '../toolkit/html2text.js';
import { pyCapitalize } from '../toolkit/python.js';
import { str } from '../toolkit/wild.js';

/**
 * Freshdesk (zerver/webhooks/freshdesk): tickets created (the HTML description as Markdown), notes added and status
 * or priority changes, in the topic "#<id>: <subject>". Freshdesk authenticates with HTTP Basic (the catalog's
 * `auth`); other triggers post nothing.
 */

/**
 * Freshdesk's API names statuses and priorities only by number; Zulip hard-codes the statuses of the one customer
 * that used the integration when it was written.
 */
const STATUSES = ['', '', 'Open', 'Pending', 'Resolved', 'Closed', 'Waiting on Customer', 'Job Application', 'Monthly'];
const PRIORITIES = ['', 'Low', 'Medium', 'High', 'Urgent'];

function propertyName(property: string, index: number): string {
  const names = property === 'status' ? STATUSES : property === 'priority' ? PRIORITIES : null;
  if (names === null) return '';
  return index >= 0 && index < names.length ? names[index]! : String(index);
}

/** "{ticket_action:created}" or "{status:{from:4,to:6}}": not JSON, so read by hand. */
function parseEvent(event: string): string[] {
  const data = event.replace(/[{}]/g, '').replace(/,/g, ':').split(':');
  if (data.length === 2) return data;
  if (data.length !== 5) throw new TypeError(`a triggered event of ${data.length} parts`);
  const [property, , from, , to] = data as [string, string, string, string, string];
  const number = (text: string) => {
    if (!/^\s*[-+]?\d+\s*$/.test(text)) throw new TypeError(`not a number: ${text}`);
    return Number(text);
  };
  return [property, propertyName(property, number(from)), propertyName(property, number(to))];
}

function requester(ticket: Json): string {
  return `${str(ticket.requester_name)} <${str(ticket.requester_email)}>`;
}

const ticketLink = (ticket: Json) => `[ticket #${str(ticket.ticket_id)}](${str(ticket.ticket_url)})`;

export const freshdesk: Integration = {
  name: 'freshdesk',
  webhookName: 'Freshdesk',
  // Zulip's authenticated_rest_api_view (HTTP Basic) tells the owner nothing of a body that is not JSON.
  notifyOnInvalidJson: false,
  handle(request) {
    const ticket = request.json().freshdesk_webhook;
    const topic = `#${str(ticket.ticket_id)}: ${str(ticket.ticket_subject)}`;
    const event = parseEvent(str(ticket.triggered_event));
    let content: string;
    if (event[1] === 'created') {
      // The description is HTML.
      const description = convertHtmlToMarkdown(str(ticket.ticket_description));
      content =
        `${requester(ticket)} created ${ticketLink(ticket)}:\n\n\`\`\` quote\n${description}\n\`\`\`\n\n` +
        `* **Type**: ${str(ticket.ticket_type)}\n* **Priority**: ${str(ticket.ticket_priority)}\n` +
        `* **Status**: ${str(ticket.ticket_status)}`;
    } else if (event[0] === 'note_type') {
      // Public notes are visible to the customer, private ones are not.
      content = `${requester(ticket)} added a ${event[1]} note to ${ticketLink(ticket)}.`;
    } else if (event[0] === 'status' || event[0] === 'priority') {
      // Freshdesk tells only the first change matching the webhook's rule.
      content =
        `${requester(ticket)} updated ${ticketLink(ticket)}:\n\n` +
        `* **${pyCapitalize(event[0])}**: ${event[1]} -> ${event[2]}`;
    } else return null;
    return { topic, content };
  },
};
