import type { contracts } from '@confab/events';
import {
  channelNarrowHash,
  groupDmSlug,
  isResolvedTopic,
  RESOLVED_TOPIC_PREFIX,
  topicNarrowHash,
  userSlug,
} from '@confab/zulip';
import type { NotificationSettings, NotificationTrigger } from './notification-rules.js';

/**
 * The missed-message emails of one batch (Zulip's handle_missedmessage_emails and
 * do_send_missedmessage_events_reply_in_zulip, templates/zerver/emails/missed_message.*): the messages are grouped
 * by conversation (a one-to-one DM by its sender, a group DM by its recipients, a channel message by channel and
 * topic, case-insensitively), one email per conversation, least recently active first. Each names the conversation
 * and links to it in the web client, quotes its messages (plain text and HTML) unless the user turned message
 * content off, says why it was sent, and where to change that.
 */

export interface MissedMessage {
  message: contracts.MessageRecord;
  trigger: NotificationTrigger;
}

export interface EmailRecipient {
  userId: number;
  fullName: string;
  deliveryEmail: string;
}

export interface EmailRealm {
  name: string;
  /** The organization's URL, without a trailing slash. */
  url: string;
}

/** One email as the mailer sends it. */
export interface MissedMessageEmail {
  to: string;
  fromName: string;
  subject: string;
  text: string;
  html: string;
  /** The messages it covers. */
  messageIds: number[];
}

/** The name of the product in the sender's display name ("Confab notifications"). */
export const INSTALLATION_NAME = 'Confab';

const MENTION_TRIGGERS: ReadonlySet<NotificationTrigger> = new Set([
  'mentioned',
  'topic_wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned_in_followed_topic',
  'stream_wildcard_mentioned_in_followed_topic',
]);

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

type Participant = { id: number; full_name: string };

function participants(message: contracts.MessageRecord): Participant[] {
  return Array.isArray(message.display_recipient) ? message.display_recipient : [];
}

/** A conversation of the email: its key, how it is named, and its links. */
interface Conversation {
  key: string;
  kind: 'dm' | 'group' | 'channel';
  /** "You and Hamlet", "You and Hamlet, Othello", "#Denmark > castle". */
  header: string;
  /** The web client's link to the conversation, at its first missed message. */
  url: string;
  channelUrl?: string;
  channelName?: string;
  topic?: string;
  others: string[];
}

function conversationOf(message: contracts.MessageRecord, me: number, realmUrl: string): Conversation {
  if (message.type === 'stream') {
    const channel = typeof message.display_recipient === 'string' ? message.display_recipient : '';
    const where = { id: message.stream_id ?? 0, name: channel };
    const channelUrl = `${realmUrl}/${channelNarrowHash(where)}`;
    return {
      key: `channel:${message.stream_id}:${message.subject.toLowerCase()}`,
      kind: 'channel',
      header: `#${channel} > ${message.subject}`,
      url: `${realmUrl}/${topicNarrowHash(where, message.subject)}/near/${message.id}`,
      channelUrl,
      channelName: channel,
      topic: message.subject,
      others: [],
    };
  }
  const others = participants(message).filter((p) => p.id !== me);
  if (others.length <= 1) {
    return {
      key: `dm:${message.sender_id}`,
      kind: 'dm',
      header: `You and ${message.sender_full_name}`,
      url: `${realmUrl}/#narrow/dm/${userSlug(message.sender_id, message.sender_full_name)}/near/${message.id}`,
      others: [message.sender_full_name],
    };
  }
  return {
    key: `group:${message.recipient_id}`,
    kind: 'group',
    header: `You and ${others.map((p) => p.full_name).join(', ')}`,
    url: `${realmUrl}/#narrow/dm/${groupDmSlug(others.map((p) => p.id))}/near/${message.id}`,
    others: others.map((p) => p.full_name),
  };
}

/** Zulip's names of a group DM's other members in a subject: "A and B", "A, B, and C", "A, B, and 2 others". */
function groupName(names: readonly string[]): string {
  if (names.length === 2) return names.join(' and ');
  if (names.length === 3) return `${names[0]}, ${names[1]}, and ${names[2]}`;
  return `${names.slice(0, 2).join(', ')}, and ${names.length - 2} others`;
}

/** The message's Markdown quoted for a plain-text email, its upload links made absolute. */
function plainQuote(content: string, realmUrl: string): string {
  return content
    .replace(/\[(\S*)\]\((\S*)\)/g, '$2')
    .replace(/(^|[\s(])\/user_uploads\//g, `$1${realmUrl}/user_uploads/`)
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/** The message's HTML with the links and images relative to the organization made absolute. */
function absoluteHtml(html: string, realmUrl: string): string {
  return html.replace(/\b(href|src)="(\/(?!\/)|#)/g, (_m, attr: string, start: string) =>
    start === '#' ? `${attr}="${realmUrl}/#` : `${attr}="${realmUrl}/`,
  );
}

/** Why the email was sent (the footer of Zulip's template), from the triggers of its messages. */
function reason(triggers: ReadonlySet<NotificationTrigger>, conversation: Conversation): string {
  const where = conversation.channelName === undefined ? '' : `#${conversation.channelName}`;
  if (triggers.has('mentioned')) return 'You are receiving this because you were mentioned.';
  if (triggers.has('topic_wildcard_mentioned') || triggers.has('topic_wildcard_mentioned_in_followed_topic'))
    return `You are receiving this because all topic participants were mentioned in ${conversation.header}.`;
  if (triggers.has('stream_wildcard_mentioned') || triggers.has('stream_wildcard_mentioned_in_followed_topic'))
    return `You are receiving this because everyone was mentioned in ${where}.`;
  if (triggers.has('followed_topic_email_notify'))
    return 'You are receiving this because you have email notifications enabled for topics you follow.';
  if (triggers.has('stream_email_notify'))
    return `You are receiving this because you have email notifications enabled for ${where}.`;
  return conversation.kind === 'group'
    ? 'You are receiving this because you were sent a group direct message.'
    : 'You are receiving this because you were sent a direct message.';
}

function subjectOf(
  conversation: Conversation,
  senders: readonly string[],
  showContent: boolean,
  realm: EmailRealm,
  settings: NotificationSettings,
): string {
  let subject: string;
  if (!showContent) subject = 'New messages';
  else if (conversation.kind === 'group') subject = `Group DMs with ${groupName(conversation.others)}`;
  else if (conversation.kind === 'dm') subject = `DMs with ${senders.join(', ')}`;
  else {
    const resolved = isResolvedTopic(conversation.topic!);
    const topic = resolved ? conversation.topic!.slice(RESOLVED_TOPIC_PREFIX.length) : conversation.topic!;
    subject = `${resolved ? '[resolved] ' : ''}#${conversation.channelName} > ${topic}`;
  }
  // Zulip's "automatic" includes it when the address has accounts in other organizations; Confab does not know
  // that here, so only "always" (2) does.
  return settings.realm_name_in_email_notifications_policy === 2 ? `${subject} [${realm.name}]` : subject;
}

/** Consecutive messages of one sender, as Zulip collapses them (its sender blocks). */
function senderBlocks(messages: readonly contracts.MessageRecord[]): contracts.MessageRecord[][] {
  const blocks: contracts.MessageRecord[][] = [];
  for (const message of messages) {
    const last = blocks[blocks.length - 1];
    if (last && last[0]!.sender_id === message.sender_id) last.push(message);
    else blocks.push([message]);
  }
  return blocks;
}

function renderOne(
  recipient: EmailRecipient,
  realm: EmailRealm,
  settings: NotificationSettings,
  conversation: Conversation,
  missed: readonly MissedMessage[],
): MissedMessageEmail {
  const messages = missed.map((m) => m.message);
  const triggers = new Set(missed.map((m) => m.trigger));
  const mentioned = [...triggers].some((t) => MENTION_TRIGGERS.has(t));
  // Of a mention, the senders who mentioned the user (Zulip's "Keep only the senders who actually mentioned").
  const senders = [
    ...new Set(
      missed.filter((m) => !mentioned || MENTION_TRIGGERS.has(m.trigger)).map((m) => m.message.sender_full_name),
    ),
  ];
  const showContent = settings.message_content_in_email_notifications;
  const why = reason(triggers, conversation);
  const settingsUrl = `${realm.url}/#settings/notifications`;

  const text: string[] = [];
  const html: string[] = [];
  if (showContent) {
    text.push(conversation.header, '');
    const headerHtml =
      conversation.kind === 'channel'
        ? `<a href="${escapeHtml(conversation.channelUrl!)}">#${escapeHtml(conversation.channelName!)}</a> &gt; ` +
          `<a href="${escapeHtml(conversation.url)}">${escapeHtml(conversation.topic!)}</a>`
        : `<a href="${escapeHtml(conversation.url)}">${escapeHtml(conversation.header)}</a>`;
    html.push(`<h3>${headerHtml}</h3>`);
    for (const block of senderBlocks(messages)) {
      // A one-to-one DM's sender is in the header already (Zulip's sender_string).
      const sender = conversation.kind === 'dm' ? '' : block[0]!.sender_full_name;
      if (sender) text.push(`${sender}:`);
      if (sender) html.push(`<p><b>${escapeHtml(sender)}</b>:</p>`);
      for (const message of block) {
        text.push(plainQuote(message.content, realm.url), '');
        html.push(`<blockquote>${absoluteHtml(message.rendered_content, realm.url)}</blockquote>`);
      }
    }
  } else {
    const hidden =
      'This email does not include message content because you have disabled message content in email notifications.';
    text.push(hidden, '');
    html.push(`<p>${escapeHtml(hidden)}</p>`);
  }
  text.push(
    `View or reply in ${realm.name}:`,
    conversation.url,
    '',
    why,
    'Do not reply to this email: this server does not accept incoming email.',
    '',
    'Manage email preferences:',
    settingsUrl,
    '',
  );
  html.push(
    `<p><a href="${escapeHtml(conversation.url)}">View or reply in ${escapeHtml(realm.name)}</a></p>`,
    `<p>${escapeHtml(why)} Do not reply to this email: this server does not accept incoming email.</p>`,
    `<p><a href="${escapeHtml(settingsUrl)}">Manage email preferences</a></p>`,
  );
  return {
    to: recipient.deliveryEmail,
    fromName: `${INSTALLATION_NAME} notifications`,
    subject: subjectOf(conversation, senders, showContent, realm, settings),
    text: text.join('\n'),
    html: `<!DOCTYPE html><html><body>${html.join('\n')}</body></html>`,
    messageIds: messages.map((m) => m.id),
  };
}

/** The emails of one batch: one per conversation, least recently active first; none for no messages. */
export function missedMessageEmails(
  recipient: EmailRecipient,
  realm: EmailRealm,
  settings: NotificationSettings,
  missed: readonly MissedMessage[],
): MissedMessageEmail[] {
  const buckets = new Map<string, { conversation: Conversation; missed: MissedMessage[] }>();
  for (const m of [...missed].sort((a, b) => a.message.id - b.message.id)) {
    const conversation = conversationOf(m.message, recipient.userId, realm.url);
    const bucket = buckets.get(conversation.key) ?? { conversation, missed: [] };
    bucket.missed.push(m);
    buckets.set(conversation.key, bucket);
  }
  return [...buckets.values()]
    .sort((a, b) => a.missed[a.missed.length - 1]!.message.id - b.missed[b.missed.length - 1]!.message.id)
    .map((b) => renderOne(recipient, realm, settings, b.conversation, b.missed));
}
