import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import { FLAG } from '@confab/zulip';
import { claimAttachments } from './attachments.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { defaultReadBySender } from './client.js';
import { RepeatedSend, type NewMessage, type SendWrite, type SentRows } from './message-store.js';
import { topicLinks } from '@confab/markdown';
import { displayRecipientUsers, messageRecord } from './message-records.js';
import { alertedUsers } from './personal-filters.js';
import { attachWidget } from './submessages.js';
import { checkAddressee, checkClientIds, checkGroupMentions, checkWildcards, type Addressed } from './send-checks.js';
import type { SqlExecutor } from './storage.js';
import { normalizeContent, topicKey } from './text.js';
import { automaticPolicyOnSend, userTopicEvent } from './topic-policy.js';
import type { Channel, StoredMessage, TopicPolicyChange, User, VisibilityPolicy } from './types.js';
import { OUTGOING_WEBHOOK_BOT, VISIBILITY_FOLLOWED, VISIBILITY_MUTED } from './types.js';
import type { SendInput } from './send-input.js';

export type SendResult = { id: number; automatic_new_visibility_policy?: number } & Record<string, unknown>;

/** What a send would write, after every check (Zulip's check_message) and the rendering. */
export interface PreparedSend {
  write: SendWrite;
  claimable: Awaited<ReturnType<Domain['attachments']['claimable']>>;
  placeholder: StoredMessage;
  meta: { realmId: number; requestId: string };
  channel: Channel | null;
  automatic: number | undefined;
  /** The message as checked: channel or participants, normalized topic and content, rendered HTML. */
  checked: {
    channelId: number | null;
    participantIds: number[];
    topic: string;
    content: string;
    renderedContent: string;
  };
}

export interface SendOptions {
  /**
   * Further writes committed in the same transaction as the message (a scheduled message marked delivered); they
   * return their events. Throwing rolls the message back.
   */
  alongside?: (executor: SqlExecutor, messageId: number) => Promise<OutboxRecord[]>;
}

/** POST /messages: every rule of Zulip's check_message, then one transaction for the message, its rows and events. */
export async function sendMessage(
  domain: Domain,
  actor: Actor,
  input: SendInput,
  options: SendOptions = {},
): Promise<SendResult> {
  const prepared = await prepareSend(domain, actor, input);
  const result = await commitSend(domain, prepared, options);
  await attachWidget(domain, actor, { id: result.id, content: prepared.checked.content });
  return result;
}

/** Every check of a send and its rendering, writing no message (scheduling one, or before committing). */
export async function prepareSend(domain: Domain, actor: Actor, input: SendInput): Promise<PreparedSend> {
  checkClientIds(input);
  const content = normalizeContent(input.content);
  const addressed = await checkAddressee(domain, actor, input, content);
  const { channel, topic, rendered } = addressed;
  const participants = channel ? await checkWildcards(domain, actor, channel, topic, rendered) : [];
  await checkGroupMentions(domain, actor, rendered.mentionedGroupIds);
  const readBySender = input.readBySender ?? defaultReadBySender(input.client);
  const claimable = await domain.attachments.claimable(actor.realm.id, actor.user.id, rendered.linkedUploadPaths);
  const { mentionedUsers, ...delivery } = await deliveryPlan(domain, actor, addressed, {
    participants,
    readBySender,
    content,
    readBy: input.readBy,
  });

  const now = new Date();
  const newMessage: NewMessage = {
    realmId: actor.realm.id,
    senderId: actor.user.id,
    recipientId: addressed.recipientId,
    channelId: channel?.id ?? null,
    topic,
    topicKey: topicKey(topic),
    content,
    renderedContent: rendered.html,
    dateSent: now,
    sendingClient: input.client,
    isMeMessage: rendered.isMeMessage,
    hasAttachment: claimable.length > 0,
    hasImage: rendered.hasImage,
    hasLink: rendered.hasLink,
  };
  const meta = { realmId: actor.realm.id, requestId: actor.requestId };
  const { policies, automatic } = topicPolicyChanges(actor, addressed, newMessage.topicKey, mentionedUsers);
  const serviceBots = serviceBotTriggers(actor, addressed, mentionedUsers);
  const links = channel ? topicLinks(await domain.directory.linkifiersOf(actor.realm.id), topic) : [];
  const { write, placeholder } = sendWrite(actor, input, addressed, {
    newMessage,
    delivery,
    policies,
    meta,
    topicLinks: links,
    serviceBots,
    linksForPreview: rendered.linksForPreview,
  });
  return {
    write,
    claimable,
    placeholder,
    meta,
    channel,
    automatic,
    checked: {
      channelId: channel?.id ?? null,
      participantIds: addressed.participants.map((u) => u.id),
      topic,
      content,
      renderedContent: rendered.html,
    },
  };
}

/** Phase 3: who receives the message beyond the channel's subscribers, and the flags each receiver's row gets. */
async function deliveryPlan(
  domain: Domain,
  actor: Actor,
  addressed: Addressed,
  input: { participants: number[]; readBySender: boolean; content: string; readBy: readonly number[] | undefined },
): Promise<SendWrite['delivery'] & { mentionedUsers: User[] }> {
  const { channel, rendered, mentioned } = addressed;
  const mentionedUsers = mentioned.length > 0 ? await domain.readModel.usersByIds(actor.realm.id, mentioned) : [];
  // Mentioned bots that are not subscribed still receive the message (Zulip's um_eligible default bots).
  const extraUserIds = channel
    ? mentionedUsers.filter((u) => u.isBot && u.botType === 1 && u.isActive).map((u) => u.id)
    : addressed.participants.filter((u) => u.isActive).map((u) => u.id);
  const baseFlags =
    (channel ? 0 : FLAG.is_private) | (rendered.wildcards.channel && channel ? FLAG.stream_wildcard_mentioned : 0);
  const flagged: { userIds: number[]; bit: number }[] = [
    { userIds: mentioned, bit: FLAG.mentioned },
    { userIds: input.readBySender ? [actor.user.id] : [], bit: FLAG.read },
  ];
  if (input.readBy && input.readBy.length > 0) flagged.push({ userIds: [...input.readBy], bit: FLAG.read });
  if (channel && rendered.wildcards.topic)
    flagged.push({ userIds: input.participants, bit: FLAG.topic_wildcard_mentioned });
  // Other users' own settings: a sender they muted arrives read; their alert words flag the message.
  const filters = await domain.directory.personalFilters(actor.realm.id);
  const muters = filters.mutedBy.get(actor.user.id) ?? [];
  if (muters.length > 0) flagged.push({ userIds: [...muters], bit: FLAG.read });
  const alerted = alertedUsers(input.content, filters.alertWords);
  if (alerted.length > 0) flagged.push({ userIds: alerted, bit: FLAG.has_alert_word });
  return { channelId: channel?.id ?? null, extraUserIds, baseFlags, flagged, mentionedUsers };
}

/**
 * Phase 4: topic policies the message changes: the sender's automatic follow/unmute, and mentioned users who follow
 * topics they are mentioned in (unless they muted or already follow it). Without `facts`, the statement decides the
 * sender's policy itself (see `sendWrite`).
 */
function topicPolicyChanges(
  actor: Actor,
  addressed: Addressed,
  key: string,
  mentionedUsers: readonly User[],
): { policies: TopicPolicyChange[]; automatic: number | undefined } {
  const { channel, facts, topic } = addressed;
  const policies: TopicPolicyChange[] = [];
  if (!channel || !facts) return { policies, automatic: undefined };
  const change = (userId: number, policy: VisibilityPolicy) => ({
    userId,
    channelId: channel.id,
    topicName: topic,
    topicKey: key,
    policy,
  });
  let automatic: number | undefined;
  const policy = actor.user.isBot ? null : automaticPolicyOnSend(actor.user, facts);
  if (policy !== null) {
    automatic = policy;
    policies.push(change(actor.user.id, policy));
  }
  for (const user of mentionedUsers) {
    if (!user.automaticallyFollowTopicsWhereMentioned || user.isBot || !user.isActive || user.id === actor.user.id)
      continue;
    if (!facts.mentionedSubscribed.has(user.id)) continue;
    const current = facts.mentionedPolicies.get(user.id) ?? 0;
    if (current === VISIBILITY_MUTED || current === VISIBILITY_FOLLOWED) continue;
    policies.push(change(user.id, VISIBILITY_FOLLOWED));
  }
  return { policies, automatic };
}

/**
 * Zulip's get_service_bot_events: the outgoing webhook bots this message triggers — those a channel message mentions
 * (directly or through a group), or the participants of a direct message — unless a bot sent it (which also keeps
 * a bot's replies from triggering bots). Reads nothing: the mentioned users and the participants are already loaded,
 * so a message that involves no such bot costs a comparison per mentioned user or participant.
 */
export function serviceBotTriggers(
  actor: Actor,
  addressed: Pick<Addressed, 'channel' | 'participants'>,
  mentionedUsers: readonly User[],
): ServiceBotTrigger[] {
  if (actor.user.isBot) return [];
  const isServiceBot = (u: User) => u.isBot && u.botType === OUTGOING_WEBHOOK_BOT && u.isActive;
  if (addressed.channel)
    return mentionedUsers.filter(isServiceBot).map((u) => ({ user_id: u.id, trigger: 'mention' as const }));
  return addressed.participants
    .filter((u) => isServiceBot(u) && u.id !== actor.user.id)
    .map((u) => ({ user_id: u.id, trigger: 'direct_message' as const }));
}

export type ServiceBotTrigger = contracts.OutgoingWebhookTrigger;

/**
 * Phase 5: what the statement writes: the message, its receivers and flags, and its events. The message.sent
 * envelope is completed by the statement (message id, receivers with the sender first, flags); the outbox relay
 * checks it against its contract as published.
 */
function sendWrite(
  actor: Actor,
  input: SendInput,
  addressed: Addressed,
  parts: {
    newMessage: NewMessage;
    delivery: SendWrite['delivery'];
    policies: TopicPolicyChange[];
    meta: { realmId: number; requestId: string };
    topicLinks: contracts.MessageRecord['topic_links'];
    serviceBots: readonly ServiceBotTrigger[];
    /** Zulip's links_for_preview: the worker fetches them after the send. */
    linksForPreview: readonly string[];
  },
): { write: SendWrite; placeholder: StoredMessage } {
  const { channel, participants, topic } = addressed;
  const { newMessage, policies, meta } = parts;
  const now = newMessage.dateSent;
  const placeholder: StoredMessage = {
    ...newMessage,
    id: 0,
    lastEditTime: null,
    dmUserIds: channel ? null : participants.map((u) => u.id),
  };
  const record = messageRecord(
    placeholder,
    actor.user,
    actor.realm,
    channel ? channel.name : displayRecipientUsers(participants),
    [],
    parts.topicLinks,
  );
  const sentEvent = outboxRecord(
    contracts.messageSent,
    {
      message: record,
      user_ids: [],
      flags: {},
      stream: channel
        ? { name: channel.name, invite_only: channel.inviteOnly, is_web_public: channel.isWebPublic }
        : null,
      local_id: input.localId ?? null,
      sender_queue_id: input.queueId ?? null,
    },
    meta,
  );
  const write: SendWrite = {
    message: newMessage,
    delivery: parts.delivery,
    sentEvent,
    otherEvents: policies.map((c) => userTopicEvent(c, now, meta)),
    policies,
    setFirstMessageId: channel !== null && channel.firstMessageId === null,
  };
  // A client's queue_id and local_id are kept beside the message, so a retried send posts once.
  if (input.queueId !== undefined && input.localId !== undefined)
    write.clientIds = { queueId: input.queueId, localId: input.localId };
  // Only a message that triggers outgoing webhook bots, or has links to preview, carries these events (completed
  // with the id like message.sent); every other message is written exactly as before.
  const idEvents: NonNullable<SendWrite['idEvents']> = [];
  if (parts.serviceBots.length > 0)
    idEvents.push({
      record: outboxRecord(contracts.outgoingWebhookTriggered, { message: record, bots: [...parts.serviceBots] }, meta),
      idPath: '{payload,message,id}',
    });
  if (parts.linksForPreview.length > 0)
    idEvents.push({
      record: outboxRecord(
        contracts.linkPreviewsRequested,
        { message_id: 0, realm_id: meta.realmId, content: newMessage.content, urls: [...parts.linksForPreview] },
        meta,
      ),
      idPath: '{payload,message_id}',
    });
  if (idEvents.length > 0) write.idEvents = idEvents;
  if (channel && !addressed.facts) {
    // Bots never change their topic policies; 4 is "never" for both settings.
    const bot = actor.user.isBot;
    write.senderPolicy = {
      follow: bot ? 4 : actor.user.automaticallyFollowTopicsPolicy,
      unmute: bot ? 4 : actor.user.automaticallyUnmuteTopicsInMutedStreamsPolicy,
      historyPublic: channel.historyPublicToSubscribers,
      topicName: topic,
      // Completed by the statement with the policy it decides.
      event: userTopicEvent(
        {
          userId: actor.user.id,
          channelId: channel.id,
          topicName: topic,
          topicKey: newMessage.topicKey,
          policy: VISIBILITY_FOLLOWED,
        },
        now,
        meta,
      ),
    };
  }
  return { write, placeholder };
}

/**
 * Commits a send; a repeat of an earlier send's client ids (Zulip's `queue_id` and `local_id`, same sender, within
 * `SENT_LOCAL_ID_MINUTES`) writes nothing and answers the first message's id: a client that retries a send whose
 * answer it lost (the server died after the commit) posts it once.
 */
async function commitSend(domain: Domain, prepared: PreparedSend, options: SendOptions): Promise<SendResult> {
  try {
    return await commitOnce(domain, prepared, options);
  } catch (err) {
    if (!(err instanceof RepeatedSend)) throw err;
    const first = await domain.messages.sentWith(err.clientIds);
    // The first send's row is there (its commit made the repeat fail) unless it has just been forgotten.
    if (first === null) return commitOnce(domain, prepared, options);
    return { id: first };
  }
}

async function commitOnce(domain: Domain, prepared: PreparedSend, options: SendOptions): Promise<SendResult> {
  const { write, claimable, placeholder, meta, channel } = prepared;
  let automatic = prepared.automatic;
  let sent: SentRows;
  const alongside = options.alongside;
  if (claimable.length === 0) {
    // The common case: one statement, which is its own transaction (with `alongside`, one plain-SQL transaction).
    sent = await domain.messages.send(write, alongside);
  } else {
    // Claiming uploads takes a unit of work of its own; their events wake the relay after its commit.
    sent = await domain.db.write(meta.realmId, async (store) => {
      const rows = await domain.messages.sendIn(store.sql, write);
      const events = await claimAttachments(store, claimable, { ...placeholder, id: rows.messageId }, meta);
      if (alongside) events.push(...(await alongside(store.sql, rows.messageId)));
      return { result: rows, events };
    });
  }
  const messageId = sent.messageId;
  if (sent.senderPolicy !== null) automatic = sent.senderPolicy;
  if (channel?.firstMessageId === null) domain.directory.forgetChannel(channel.id);
  const response: SendResult = { id: messageId };
  if (automatic !== undefined) response.automatic_new_visibility_policy = automatic;
  return response;
}
