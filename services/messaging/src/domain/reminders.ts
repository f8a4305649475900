import { ConfabError, invalid } from '@confab/errors';
import { contracts, outboxRecord } from '@confab/events';
import { messageLinkSyntax, unusedFence } from '@confab/markdown';
import { directMessageUrl, messageNarrowUrl } from '@confab/zulip';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { accessMessage } from './fetch.js';
import { validId } from './ids.js';
import { mentionList, silentMention } from './notice-text.js';
import { enqueue, type DeliveryQueue } from './scheduled-messages.js';
import { REMIND, type StoredScheduledMessage } from './scheduled-store.js';
import { sendMessage } from './send.js';
import { MAX_MESSAGE_LENGTH, truncate } from './text.js';
import type { StoredMessage } from './types.js';

/** Zulip's MAX_REMINDER_NOTE_LENGTH. */
export const MAX_REMINDER_NOTE_LENGTH = 1000;

const meta = (actor: Actor) => ({ realmId: actor.realm.id, requestId: actor.requestId });

export function reminderDict(r: StoredScheduledMessage): contracts.ReminderRecord {
  return {
    reminder_id: r.id,
    type: 'private',
    to: [r.senderId],
    content: r.content,
    rendered_content: r.renderedContent,
    scheduled_delivery_timestamp: Math.floor(r.scheduledAt.getTime() / 1000),
    failed: r.failed,
    reminder_target_message_id: r.reminderTargetMessageId ?? 0,
  };
}

/** Zulip's normalize_note_text. */
function normalizeNote(note: string): string {
  const text = note.trimEnd().replace(/^\n+/, '');
  if ([...text].length > MAX_REMINDER_NOTE_LENGTH)
    throw invalid(`Maximum reminder note length: ${MAX_REMINDER_NOTE_LENGTH} characters`);
  return text;
}

/** Zulip's get_reminder_formatted_content: what the reminder says, quoting the message as it is now. */
export async function reminderContent(
  domain: Domain,
  actor: Actor,
  message: StoredMessage,
  note: string | undefined,
): Promise<string> {
  const normalized = note ? normalizeNote(note) : '';
  const sender = (await domain.directory.user(message.senderId)) ?? actor.user;
  const who = silentMention(sender);
  const noted = normalized ? ` Note:\n > ${normalized}` : '';
  let content: string;
  let said: string;
  let sent: string;
  if (message.channelId !== null) {
    const channel = (await domain.directory.channel(message.channelId)) ?? { id: message.channelId, name: '' };
    const url = messageNarrowUrl(actor.realm.url, channel, message.topic, message.id);
    const link = messageLinkSyntax(channel, message.topic, message.id, actor.realm.emptyTopicDisplayName);
    content = `You requested a reminder for the following message.${noted}\n\n`;
    said = `${who} [said](${url}) in ${link}:`;
    sent = `${who} [sent](${url}) a WIDGET in ${link}.`;
  } else {
    const participants = message.dmUserIds ?? [];
    const people = await domain.directory.usersByIds(actor.realm.id, participants);
    const others = people.filter((u) => u.id !== message.senderId);
    const url = directMessageUrl(actor.realm.url, participants, message.id);
    const to = mentionList(others.length > 0 ? others : [sender]);
    content = `You requested a reminder for the following direct message.${noted}\n\n`;
    said = `${who} [said](${url}) to ${to}:`;
    sent = `${who} [sent](${url}) a WIDGET to ${to}.`;
  }
  if (message.content.startsWith('/poll')) return content + sent.replace('WIDGET', 'poll');
  if (message.content.startsWith('/todo')) return content + sent.replace('WIDGET', 'todo list');
  content += `${said}\n`;
  const fence = unusedFence(content);
  const room = MAX_MESSAGE_LENGTH - [...`${content}${fence}quote\n\n${fence}`].length;
  return `${content}${fence}quote\n${truncate(message.content, room, '\n[message truncated]')}\n${fence}`;
}

/** POST /reminders (Zulip's schedule_reminder_for_message). */
export async function createReminder(
  domain: Domain,
  queue: DeliveryQueue,
  actor: Actor,
  input: { messageId: number; deliverAt: Date; note: string | undefined; client: string },
): Promise<number> {
  if (input.deliverAt.getTime() <= Date.now()) throw invalid('Scheduled delivery time must be in the future.');
  const { message } = await accessMessage(domain, actor, input.messageId);
  const content = await reminderContent(domain, actor, message, input.note);
  const rendered = await domain.renderer.render(actor.realm, content, actor.user);
  const created = await domain.db.write(actor.realm.id, async ({ scheduledMessages }) => {
    const row = await scheduledMessages.create({
      realmId: actor.realm.id,
      senderId: actor.user.id,
      type: 'private',
      channelId: null,
      userIds: [actor.user.id],
      topic: '',
      content,
      renderedContent: rendered.html,
      scheduledAt: input.deliverAt,
      readBySender: false,
      sendingClient: input.client,
      deliveryType: REMIND,
      reminderTargetMessageId: message.id,
    });
    const added = outboxRecord(
      contracts.remindersAdded,
      { user_id: actor.user.id, reminders: [reminderDict(row)] },
      meta(actor),
    );
    return { result: row, events: [added] };
  });
  await enqueue(domain, queue, created.id, created.scheduledAt);
  return created.id;
}

/** GET /reminders: the caller's reminders not sent yet. */
export async function listReminders(domain: Domain, actor: Actor) {
  return { reminders: (await domain.scheduledMessages.undelivered(actor.user.id, REMIND)).map(reminderDict) };
}

/** DELETE /reminders/{reminder_id}. */
export async function deleteReminder(domain: Domain, actor: Actor, id: number): Promise<void> {
  const notFound = () => new ConfabError('Reminder does not exist', { status: 404 });
  if (!validId(id)) throw notFound();
  await domain.db.write(actor.realm.id, async ({ scheduledMessages }) => {
    if (!(await scheduledMessages.delete(id, actor.user.id, REMIND))) throw notFound();
    const removed = outboxRecord(contracts.reminderRemoved, { user_id: actor.user.id, reminder_id: id }, meta(actor));
    return { result: undefined, events: [removed] };
  });
}

/**
 * Delivers a due reminder (the scheduled-delivery worker's job, Zulip's send_reminder): the Notification Bot sends
 * its text to the person who asked, marking the row delivered in the same transaction. Unlike scheduled messages,
 * a late reminder is still sent, and a refused one (the account deactivated) is marked failed without telling.
 */
export async function deliverReminder(
  domain: Domain,
  row: StoredScheduledMessage,
): Promise<'delivered' | 'failed' | 'superseded'> {
  const requestId = `reminder-${row.id}`;
  const [user, realm] = await Promise.all([domain.directory.user(row.senderId), domain.directory.realm(row.realmId)]);
  let failure: string | null = null;
  if (!realm || realm.deactivated) failure = 'This organization has been deactivated';
  else if (!user || !user.isActive) failure = 'Account is deactivated';
  const bot = realm ? await domain.readModel.notificationBot(realm.id) : null;
  if (failure === null && (!bot || !realm)) failure = 'Reminder could not be sent.';
  if (failure === null && bot && realm) {
    let superseded = false;
    try {
      await sendMessage(
        domain,
        { user: bot, realm, requestId },
        {
          type: 'private',
          to: JSON.stringify([row.senderId]),
          topic: undefined,
          content: row.content,
          queueId: undefined,
          localId: undefined,
          readBySender: true,
          client: 'Internal',
        },
        {
          alongside: async (tx, messageId) => {
            superseded = !(await domain.scheduledMessages.markDelivered(tx, row.id, row.version, messageId));
            if (superseded) throw new ConfabError('reminder changed meanwhile', { status: 409 });
            return [];
          },
        },
      );
      return 'delivered';
    } catch (err) {
      if (superseded) return 'superseded';
      if (!(err instanceof ConfabError) || err.status >= 500) throw err;
      failure = err.message;
    }
  }
  await domain.db.write(row.realmId, async ({ scheduledMessages }) => ({
    result: await scheduledMessages.markFailed(row.id, row.version, failure ?? 'Reminder could not be sent.'),
    events: [],
  }));
  domain.logger.info({ reminderId: row.id, failure }, 'reminder could not be sent');
  return 'failed';
}
