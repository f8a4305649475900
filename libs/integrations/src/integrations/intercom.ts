import { unsupportedEvent, type Integration, type Json } from '../framework.js';
import { stripTags } from '../toolkit/html.js';
import { pyCapitalize } from '../toolkit/python.js';
import { pyFormat } from '../toolkit/pyformat.js';
import { int, str, strOrNone } from '../toolkit/wild.js';

/**
 * Intercom (zerver/webhooks/intercom): companies, contacts, conversations, events and users, in the topic of the
 * contact or user ("User: Ada"), "Companies" or "Events". Intercom checks the URL with a HEAD request first.
 */

type Translation = [topic: string, body: string];

const CONVERSATION_REPLY = '{admin_name} {action} the conversation:\n\n``` quote\n{content}\n```';
const CONVERSATION_INITIATED = '{admin_name} initiated a conversation:\n\n``` quote\n{content}\n```';

/** "User: <name, pseudonym or email>". */
function contactTopic(user: Json): string {
  const name = strOrNone(user.name) || strOrNone(user.pseudonym) || strOrNone(user.email);
  return pyFormat('{type}: {name}', { type: pyCapitalize(str(user.type)), name });
}

function location(contact: Json): string {
  const data = contact.location_data;
  return `${str(data.city_name)}, ${str(data.region_name)}, ${str(data.country_name)}`;
}

const item = (payload: Json): Json => payload.data.item;

const contactCreated = (payload: Json): Translation => {
  const contact = item(payload);
  const name = strOrNone(contact.name) || strOrNone(contact.pseudonym);
  const body = pyFormat(
    'New contact created:\n* **Name (or pseudonym)**: {name}\n* **Email**: {email}\n* **Location**: {location}',
    { name, email: str(contact.email), location: location(contact) },
  );
  return [contactTopic(contact), body];
};

const contactSignedUp = (payload: Json): Translation => {
  const contact = item(payload);
  const body = `Contact signed up:\n* **Email**: ${str(contact.email)}\n* **Location**: ${location(contact)}`;
  return [contactTopic(contact), body];
};

const conversationAdmin =
  (action: string) =>
  (payload: Json): Translation => [
    contactTopic(item(payload).user),
    pyFormat('{} {} the conversation.', [strOrNone(item(payload).assignee.name), action]),
  ];

const conversationReply =
  (action: string, by: 'assignee' | 'user') =>
  (payload: Json): Translation => {
    const note = item(payload).conversation_parts.conversation_parts[0];
    const content = stripTags(str(note.body));
    const adminName = strOrNone(item(payload)[by].name);
    return [contactTopic(item(payload).user), pyFormat(CONVERSATION_REPLY, { admin_name: adminName, action, content })];
  };

const conversationInitiated =
  (by: 'assignee' | 'user') =>
  (payload: Json): Translation => {
    const content = stripTags(str(item(payload).conversation_message.body));
    const adminName = strOrNone(item(payload)[by].name);
    return [contactTopic(item(payload).user), pyFormat(CONVERSATION_INITIATED, { admin_name: adminName, content })];
  };

const userTagged =
  (action: string) =>
  (payload: Json): Translation => [
    contactTopic(item(payload).user),
    `The tag \`${str(item(payload).tag.name)}\` was ${action} the user.`,
  ];

const HANDLERS: Record<string, (payload: Json) => Translation> = {
  'company.created': (payload) => [
    'Companies',
    `New company **${str(item(payload).name)}** created:\n` +
      `* **User count**: ${int(item(payload).user_count)}\n* **Monthly spending**: ${int(item(payload).monthly_spend)}`,
  ],
  'contact.added_email': (payload) => [
    contactTopic(item(payload)),
    `New email ${str(item(payload).email)} added to contact.`,
  ],
  'contact.created': contactCreated,
  'contact.signed_up': contactSignedUp,
  'contact.tag.created': (payload) => [
    contactTopic(item(payload).contact),
    `Contact tagged with the \`${str(item(payload).tag.name)}\` tag.`,
  ],
  'contact.tag.deleted': (payload) => [
    contactTopic(item(payload).contact),
    `The tag \`${str(item(payload).tag.name)}\` was removed from the contact.`,
  ],
  'conversation.admin.assigned': (payload) => [
    contactTopic(item(payload).user),
    `${str(item(payload).assignee.name)} assigned to conversation.`,
  ],
  'conversation.admin.closed': conversationAdmin('closed'),
  'conversation.admin.opened': conversationAdmin('opened'),
  'conversation.admin.snoozed': conversationAdmin('snoozed'),
  'conversation.admin.unsnoozed': conversationAdmin('unsnoozed'),
  'conversation.admin.replied': conversationReply('replied to', 'assignee'),
  'conversation.admin.noted': conversationReply('added a note to', 'assignee'),
  'conversation.admin.single.created': conversationInitiated('assignee'),
  'conversation.user.created': conversationInitiated('user'),
  'conversation.user.replied': conversationReply('replied to', 'user'),
  'event.created': (payload) => ['Events', `New event **${str(item(payload).event_name)}** created.`],
  'user.created': (payload) => [
    contactTopic(item(payload)),
    `New user created:\n* **Name**: ${str(item(payload).name)}\n* **Email**: ${str(item(payload).email)}`,
  ],
  'user.deleted': (payload) => [contactTopic(item(payload)), 'User deleted.'],
  'user.email.updated': (payload) => [
    contactTopic(item(payload)),
    `User's email was updated to ${str(item(payload).email)}.`,
  ],
  'user.tag.created': userTagged('added to'),
  'user.tag.deleted': userTagged('removed from'),
  'user.unsubscribed': (payload) => [contactTopic(item(payload)), 'User unsubscribed from emails.'],
  // Intercom's visitor sign-up reads as a contact's.
  'visitor.signed_up': contactSignedUp,
};

export const intercom: Integration = {
  name: 'intercom',
  webhookName: 'Intercom',
  eventTypes: Object.keys(HANDLERS),
  handle(request) {
    // Intercom checks that the URL answers with a HEAD request.
    if (request.method === 'HEAD') return null;
    const payload = request.json();
    const eventType = str(payload.topic);
    if (eventType === 'ping') return null;
    const handler = HANDLERS[eventType];
    if (handler === undefined) return unsupportedEvent(eventType);
    const [topic, content] = handler(payload);
    return { topic, content, event: eventType };
  },
};
