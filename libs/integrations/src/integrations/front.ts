import { ConfabError } from '@confab/errors';
import type { Integration, Json } from '../framework.js';
import { str } from '../toolkit/wild.js';

/**
 * Front (zerver/webhooks/front): messages, comments and what teammates do to a conversation, in the topic of the
 * conversation's id. An event type Front does not document is answered "Unknown webhook request".
 */

function messageData(payload: Json) {
  return {
    link: `https://app.frontapp.com/open/${str(payload.target.data.id)}`,
    outbox: str(payload.conversation.recipient.handle),
    inbox: str(payload.source.data[0].address),
    subject: str(payload.conversation.subject),
  };
}

const nameOf = (data: Json) => `${str(data.first_name)} ${str(data.last_name)}`;
/** Who acted: a teammate, a rule ("'Name' rule") or Gmail ("(gmail)"). */
function sourceName(payload: Json): string {
  const type = payload.source._meta?.type;
  if (type === 'rule') return `'${str(payload.source.data.name)}' rule`;
  if (type === 'gmail') return '(gmail)';
  return nameOf(payload.source.data);
}

function comment(payload: Json): string {
  const name = sourceName(payload);
  return `**${name}** left a comment:\n\`\`\`quote\n${str(payload.target.data.body)}\n\`\`\``;
}

const BODIES: Record<string, (payload: Json) => string> = {
  inbound: (payload) => {
    const { link, outbox, inbox, subject } = messageData(payload);
    return `[Inbound message](${link}) from **${outbox}** to **${inbox}**:\n\`\`\`quote\n*Subject*: ${subject}\n\`\`\``;
  },
  outbound: (payload) => {
    const { link, outbox, inbox, subject } = messageData(payload);
    return `[Outbound message](${link}) from **${inbox}** to **${outbox}**:\n\`\`\`quote\n*Subject*: ${subject}\n\`\`\``;
  },
  out_reply: (payload) => {
    const { link, outbox, inbox } = messageData(payload);
    return `[Outbound reply](${link}) from **${inbox}** to **${outbox}**.`;
  },
  comment,
  mention: comment,
  assign: (payload) => {
    const source = sourceName(payload);
    const target = nameOf(payload.target.data);
    return source === target ? `**${source}** assigned themselves.` : `**${source}** assigned **${target}**.`;
  },
  unassign: (payload) => `Unassigned by **${sourceName(payload)}**.`,
  archive: (payload) => `Archived by **${sourceName(payload)}**.`,
  reopen: (payload) => `Reopened by **${sourceName(payload)}**.`,
  trash: (payload) => `Deleted by **${sourceName(payload)}**.`,
  restore: (payload) => `Restored by **${sourceName(payload)}**.`,
  tag: (payload) => `**${sourceName(payload)}** added tag **${str(payload.target.data.name)}**.`,
  untag: (payload) => `**${sourceName(payload)}** removed tag **${str(payload.target.data.name)}**.`,
};

export const front: Integration = {
  name: 'front',
  webhookName: 'Front',
  eventTypes: Object.keys(BODIES),
  handle(request) {
    const payload = request.json();
    const event = str(payload.type);
    const body = BODIES[event];
    if (body === undefined) throw new ConfabError('Unknown webhook request');
    return { topic: str(payload.conversation.id), content: body(payload), event };
  },
};
