import { unsupportedEvent, type Integration, type Json } from '../framework.js';
import { eventHeader } from '../toolkit/headers.js';
import { int, str, strOrNone } from '../toolkit/wild.js';

/**
 * Groove (zerver/webhooks/groove): tickets started and assigned, replies and notes, in the topic "notifications",
 * the event named by the X-Groove-Event header.
 */

function ticketStarted(payload: Json): string {
  return (
    `${str(payload.customer_name)} submitted new ticket [#${int(payload.number)}: ${str(payload.title)}]` +
    `(${str(payload.app_url)}):\n\n\`\`\` quote\n${str(payload.summary)}\n\`\`\``
  );
}

function ticketAssigned(payload: Json): string | null {
  const rawState = str(payload.state);
  const state = rawState === 'opened' ? 'open' : rawState;
  const number = int(payload.number);
  const title = str(payload.title);
  const url = str(payload.app_url);
  const assignee = strOrNone(payload.assignee);
  const group = strOrNone(payload.assigned_group);
  // Unassigned: nothing is posted.
  if (!assignee && !group) return null;
  const info = assignee && group ? `${assignee} from ${group}` : (assignee || group)!;
  return `[#${number}: ${title}](${url}) (${state}) assigned to ${info}.`;
}

const replied =
  (actor: string, action: string) =>
  (payload: Json): string => {
    const author = str(payload.links.author.href).split(`http://api.groovehq.com/v1/${actor}s/`)[1];
    const number = str(payload.links.ticket.href).split('http://api.groovehq.com/v1/tickets/')[1];
    if (author === undefined || number === undefined) throw new TypeError('not a Groove API link');
    return (
      `${author} ${action} [ticket #${number}](${str(payload.app_ticket_url)}):\n\n` +
      `\`\`\` quote\n${str(payload.plain_text_body)}\n\`\`\``
    );
  };

const BODIES: Record<string, (payload: Json) => string | null> = {
  ticket_started: ticketStarted,
  ticket_assigned: ticketAssigned,
  agent_replied: replied('agent', 'replied to'),
  customer_replied: replied('customer', 'replied to'),
  note_added: replied('agent', 'left a note on'),
};

export const groove: Integration = {
  name: 'groove',
  webhookName: 'Groove',
  eventTypes: Object.keys(BODIES),
  handle(request) {
    const event = eventHeader(request, 'X-Groove-Event', 'Groove');
    const body = BODIES[event];
    if (body === undefined) return unsupportedEvent(event);
    const content = body(request.json());
    return content === null ? null : { topic: 'notifications', content, event };
  },
};
