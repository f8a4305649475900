import { ConfabError, invalid } from '@confab/errors';
import { contracts, outboxRecord } from '@confab/events';
import { validId } from './ids.js';
import { SEND_LATER, type ScheduledMessageChange, type StoredScheduledMessage } from './scheduled-store.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { displayedRecipients } from './drafts.js';
import { prepareSend } from './send.js';
import type { SendInput } from './send-input.js';
import { normalizeTopic } from './text.js';

/**
 * Where scheduled messages wait for their time (BullMQ delayed jobs, one per delivery time). A delivery sends what
 * is due when it runs, so a deleted or rescheduled message needs nothing removed: its old time finds it not due.
 */
export interface DeliveryQueue {
  /** Makes sure a delivery runs at `at` (one for all the messages due then). */
  schedule(at: Date): Promise<void>;
}

/** Zulip's SCHEDULED_MESSAGE_LATE_CUTOFF_MINUTES: later than this, a message is not sent at all. */
export const LATE_CUTOFF_MS = 10 * 60 * 1000;

const notFound = () => new ConfabError('Scheduled message does not exist', { status: 404 });
const meta = (realmId: number, requestId: string) => ({ realmId, requestId });

type ApiType = 'direct' | 'private' | 'stream' | 'channel';
const storedType = (type: ApiType): 'stream' | 'private' =>
  type === 'stream' || type === 'channel' ? 'stream' : 'private';

/** Zulip's extract_stream_id: Python's int() of the raw text. */
function extractStreamId(raw: string): number {
  if (!/^\s*[+-]?\d+\s*$/.test(raw)) throw invalid('Invalid data type for channel ID');
  return Number(raw.trim());
}

/** Zulip's extract_direct_message_recipient_ids. */
function extractUserIds(raw: string): number[] {
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // Not JSON: the raw text, which is not a list.
  }
  if (!Array.isArray(value)) throw invalid('Invalid data type for recipients');
  for (const id of value) {
    if (typeof id !== 'number' || !Number.isInteger(id)) throw invalid('Recipient list may only contain user IDs');
  }
  return [...new Set(value as number[])].sort((a, b) => a - b);
}

function checkFuture(at: Date): void {
  if (at.getTime() <= Date.now()) throw invalid('Scheduled delivery time must be in the future.');
}

export function scheduledDict(m: StoredScheduledMessage): contracts.ScheduledMessageRecord {
  return {
    scheduled_message_id: m.id,
    type: m.type,
    to: m.type === 'stream' ? m.channelId! : displayedRecipients(m.senderId, m.userIds),
    ...(m.type === 'stream' ? { topic: m.topic } : {}),
    content: m.content,
    rendered_content: m.renderedContent,
    scheduled_delivery_timestamp: Math.floor(m.scheduledAt.getTime() / 1000),
    failed: m.failed,
  };
}

/** The send a scheduled message stands for, as POST /messages would receive it. */
export function sendInput(
  m: Pick<StoredScheduledMessage, 'type' | 'channelId' | 'userIds' | 'content' | 'sendingClient'> & {
    topic: string | undefined;
    readBySender: boolean | null;
  },
): SendInput {
  return {
    type: m.type,
    to: m.type === 'stream' ? String(m.channelId) : JSON.stringify(m.userIds),
    topic: m.type === 'stream' ? m.topic : undefined,
    content: m.content,
    queueId: undefined,
    localId: undefined,
    readBySender: m.readBySender ?? undefined,
    client: m.sendingClient,
  };
}

/** Every check of POST /messages, now, for what the message would be (Zulip's check_message at scheduling). */
async function check(domain: Domain, actor: Actor, input: SendInput) {
  const { checked } = await prepareSend(domain, actor, input);
  return checked;
}

export async function listScheduled(domain: Domain, actor: Actor) {
  return { scheduled_messages: (await domain.scheduledMessages.undelivered(actor.user.id)).map(scheduledDict) };
}

export interface ScheduleInput {
  type: ApiType;
  to: string;
  topic: string | undefined;
  content: string;
  deliverAt: Date;
  readBySender: boolean | undefined;
  client: string;
}

export async function createScheduled(
  domain: Domain,
  queue: DeliveryQueue,
  actor: Actor,
  input: ScheduleInput,
): Promise<number> {
  const type = storedType(input.type);
  checkFuture(input.deliverAt);
  const channelId = type === 'stream' ? extractStreamId(input.to) : null;
  const userIds = type === 'private' ? extractUserIds(input.to) : [];
  const checked = await check(
    domain,
    actor,
    sendInput({
      type,
      channelId,
      userIds,
      topic: input.topic,
      content: input.content,
      sendingClient: input.client,
      readBySender: null,
    }),
  );
  // A channel message without a topic was refused by the check above ("Missing topic").
  const created = await domain.db.write(actor.realm.id, async ({ scheduledMessages }) => {
    const row = await scheduledMessages.create({
      realmId: actor.realm.id,
      senderId: actor.user.id,
      type,
      channelId: checked.channelId,
      userIds,
      topic: checked.topic,
      content: checked.content,
      renderedContent: checked.renderedContent,
      scheduledAt: input.deliverAt,
      readBySender: input.readBySender ?? null,
      sendingClient: input.client,
    });
    return {
      result: row,
      events: [
        outboxRecord(
          contracts.scheduledMessagesAdded,
          { user_id: actor.user.id, scheduled_messages: [scheduledDict(row)] },
          meta(actor.realm.id, actor.requestId),
        ),
      ],
    };
  });
  await enqueue(domain, queue, created.id, created.scheduledAt);
  return created.id;
}

/** How long a request waits for Redis to take a delivery job before answering anyway. */
const ENQUEUE_WAIT_MS = 2000;

/**
 * Redis trouble neither fails nor stalls the request: the row is committed, and the worker's sweep gives pending rows
 * missing from the queue their job.
 */
export async function enqueue(domain: Domain, queue: DeliveryQueue, id: number, at: Date): Promise<void> {
  try {
    await bounded(queue.schedule(at));
  } catch (err) {
    domain.logger.warn({ err, scheduledMessageId: id }, 'could not enqueue scheduled message; the worker will');
  }
}

async function bounded(work: Promise<void>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      work,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('Redis did not answer in time')), ENQUEUE_WAIT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface ScheduledEdit {
  type: ApiType | undefined;
  to: string | undefined;
  topic: string | undefined;
  content: string | undefined;
  deliverAt: Date | undefined;
  client: string;
}

/** PATCH /scheduled_messages/{id}, with Zulip's order of checks (update_scheduled_message_backend). */
export async function editScheduled(
  domain: Domain,
  queue: DeliveryQueue,
  actor: Actor,
  id: number,
  edit: ScheduledEdit,
): Promise<void> {
  if (
    edit.type === undefined &&
    edit.to === undefined &&
    edit.topic === undefined &&
    edit.content === undefined &&
    edit.deliverAt === undefined
  ) {
    throw invalid('Nothing to change');
  }
  const newType = edit.type === undefined ? undefined : storedType(edit.type);
  if (newType !== undefined && edit.to === undefined) {
    throw invalid('Recipient required when updating type of scheduled message.');
  }
  if (newType === 'stream' && edit.topic === undefined) {
    throw invalid('Topic required when updating scheduled message type to stream.');
  }
  if (edit.deliverAt !== undefined) checkFuture(edit.deliverAt);

  const existing = validId(id) ? await domain.scheduledMessages.get(id) : null;
  if (!existing || existing.senderId !== actor.user.id || existing.deliveryType !== SEND_LATER) throw notFound();
  if (existing.delivered) throw invalid('Scheduled message was already sent');
  // A message the server failed to send needs a new time.
  if (existing.failed && edit.deliverAt === undefined) {
    throw invalid('Scheduled delivery time must be in the future.');
  }

  const change: ScheduledMessageChange = { sendingClient: edit.client };
  if (newType !== undefined || edit.to !== undefined || edit.content !== undefined) {
    const type = newType ?? existing.type;
    let channelId = existing.channelId;
    let userIds = existing.userIds;
    if (edit.to !== undefined) {
      if (type === 'stream') channelId = extractStreamId(edit.to);
      else userIds = extractUserIds(edit.to);
    }
    const checked = await check(
      domain,
      actor,
      sendInput({
        type,
        channelId,
        userIds,
        topic: edit.topic ?? existing.topic,
        content: edit.content ?? existing.content,
        sendingClient: edit.client,
        readBySender: null,
      }),
    );
    if (newType !== undefined || edit.to !== undefined) {
      change.type = type;
      change.channelId = type === 'stream' ? checked.channelId : null;
      change.userIds = type === 'stream' ? [] : userIds;
      change.topic = type === 'stream' ? checked.topic : '';
    } else if (edit.topic !== undefined && existing.type === 'stream') {
      change.topic = checked.topic;
    }
    if (edit.content !== undefined) {
      change.content = checked.content;
      change.renderedContent = checked.renderedContent;
    }
  } else if (edit.topic !== undefined && existing.type === 'stream') {
    // Topics given for direct messages are ignored.
    change.topic = normalizeTopic(edit.topic, actor.realm.emptyTopicDisplayName);
  }
  if (edit.deliverAt !== undefined) change.scheduledAt = edit.deliverAt;

  const updated = await domain.db.write(actor.realm.id, async ({ scheduledMessages }) => {
    const row = await scheduledMessages.edit(id, actor.user.id, change);
    if (!row) {
      // Delivered or deleted since it was read.
      if (!(await scheduledMessages.get(id))) throw notFound();
      throw invalid('Scheduled message was already sent');
    }
    return {
      result: row,
      events: [
        outboxRecord(
          contracts.scheduledMessageUpdated,
          { user_id: actor.user.id, scheduled_message: scheduledDict(row) },
          meta(actor.realm.id, actor.requestId),
        ),
      ],
    };
  });
  // The job is replaced even when only the text changed: its delivery reads the row anyway.
  if (edit.deliverAt !== undefined || existing.failed) await enqueue(domain, queue, id, updated.scheduledAt);
}

export async function deleteScheduled(domain: Domain, actor: Actor, id: number): Promise<void> {
  if (!validId(id)) throw notFound();
  await domain.db.write(actor.realm.id, async ({ scheduledMessages }) => {
    if (!(await scheduledMessages.delete(id, actor.user.id))) throw notFound();
    return {
      result: undefined,
      events: [
        outboxRecord(
          contracts.scheduledMessageRemoved,
          { user_id: actor.user.id, scheduled_message_id: id },
          meta(actor.realm.id, actor.requestId),
        ),
      ],
    };
  });
}
