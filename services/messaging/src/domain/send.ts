import { ConfabError, invalid } from '@confab/errors';
import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import type { SentRows } from '../repositories/messages.repository.js';
import { writeOutboxWith } from '../repositories/store.js';
import type { SendWrite } from '../repositories/send-sql.js';
import { inTransaction, type SqlExecutor } from '../repositories/sql.js';
import { claimAttachments } from './attachments.js';
import { checkCanPost } from './channel-access.js';
import type { Actor, Domain } from './context.js';
import { defaultReadBySender } from './client.js';
import { FLAG } from './flags.js';
import { displayRecipientUsers, messageRecord } from './message-records.js';
import { alertedUsers } from './personal-filters.js';
import { attachWidget } from './submessages.js';
import type { Rendered } from './render.js';
import { isGuest } from './permissions.js';
import {
  checkCanSendDirect,
  checkGroupMentions,
  checkTopicsPolicy,
  checkWildcards,
  mentionedUsers,
  resolveChannel,
  resolveTarget,
} from './send-checks.js';
import { normalizeContent, normalizeTopic, topicKey } from './text.js';
import { automaticPolicyOnSend, userTopicEvent } from './topic-policy.js';
import type { Channel, SendFacts, StoredMessage, Subscription, TopicPolicyChange, VisibilityPolicy } from './types.js';
import { VISIBILITY_FOLLOWED, VISIBILITY_MUTED } from './types.js';

export interface SendInput {
  type: 'direct' | 'private' | 'stream' | 'channel';
  to: string | undefined;
  topic: string | undefined;
  content: string;
  queueId: string | undefined;
  localId: string | undefined;
  readBySender: boolean | undefined;
  client: string;
}

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
  for (const [name, value] of [
    ['queue_id', input.queueId],
    ['local_id', input.localId],
  ] as const) {
    if (value?.includes('\u0000')) throw invalid(`Invalid ${name}`);
  }
  if ((input.queueId === undefined) !== (input.localId === undefined)) {
    const missing = input.queueId === undefined ? 'queue_id' : 'local_id';
    throw new ConfabError(`Missing '${missing}' argument`, {
      code: 'REQUEST_VARIABLE_MISSING',
      data: { var_name: missing },
    });
  }
  const target = await resolveTarget(domain, actor, input);
  const content = normalizeContent(input.content);

  let channel: Channel | null = null;
  let topic = '';
  let recipientId: number;
  let facts: SendFacts | null = null;
  const rendered = async () => domain.renderer.render(actor.realm, content, actor.user);
  let result: Rendered;
  let mentioned: number[];
  if (target.kind === 'channel') {
    channel = await resolveChannel(domain, actor, target.indicator);
    topic = normalizeTopic(target.topic, actor.realm.emptyTopicDisplayName);
    recipientId = channel.recipientId;
    result = await rendered();
    mentioned = await mentionedUsers(domain, result);
    // Mentions (followers), private channels and guests need the subscription and policies read first; for the
    // common message the write statement itself decides the sender's automatic policy (one round trip).
    if (mentioned.length > 0 || channel.inviteOnly || isGuest(actor.user)) {
      // Whether the topic existed is judged on what the sender may see (Zulip avoids leaking protected history).
      facts = await domain.messages.sendFacts({
        userId: actor.user.id,
        channelId: channel.id,
        recipientId,
        topicKey: topicKey(topic),
        historyPublic: channel.historyPublicToSubscribers,
        mentionedUserIds: mentioned,
      });
      await checkCanPost(domain, actor, channel, facts.subscribed ? subscribedMarker(actor, channel) : null);
    } else {
      await checkCanPost(domain, actor, channel, null);
    }
    checkTopicsPolicy(actor, channel, topic);
  } else {
    await checkCanSendDirect(domain, actor, target.participants);
    recipientId = await domain.messages.directRecipient(
      actor.realm.id,
      target.participants.map((u) => u.id),
    );
    result = await rendered();
    mentioned = await mentionedUsers(domain, result);
  }

  let participants: number[] = [];
  if (channel) participants = await checkWildcards(domain, actor, channel, topic, result);
  await checkGroupMentions(domain, actor, result.mentionedGroupIds);
  const readBySender = input.readBySender ?? defaultReadBySender(input.client);
  const claimable = await domain.attachments.claimable(actor.realm.id, actor.user.id, result.linkedUploadPaths);

  // Mentioned bots that are not subscribed still receive the message (Zulip's um_eligible default bots).
  let extraUserIds: number[] =
    target.kind === 'direct' ? target.participants.filter((u) => u.isActive).map((u) => u.id) : [];
  const mentionedUsersRecords =
    mentioned.length > 0 ? await domain.readModel.usersByIds(actor.realm.id, mentioned) : [];
  if (channel)
    extraUserIds = mentionedUsersRecords.filter((u) => u.isBot && u.botType === 1 && u.isActive).map((u) => u.id);
  const baseFlags =
    (target.kind === 'direct' ? FLAG.is_private : 0) |
    (result.wildcards.channel && channel ? FLAG.stream_wildcard_mentioned : 0);
  const flagged: { userIds: number[]; bit: number }[] = [
    { userIds: mentioned, bit: FLAG.mentioned },
    { userIds: readBySender ? [actor.user.id] : [], bit: FLAG.read },
  ];
  if (channel && result.wildcards.topic) flagged.push({ userIds: participants, bit: FLAG.topic_wildcard_mentioned });
  // Other users' own settings: a sender they muted arrives read; their alert words flag the message.
  const filters = await domain.directory.personalFilters(actor.realm.id);
  const muters = filters.mutedBy.get(actor.user.id) ?? [];
  if (muters.length > 0) flagged.push({ userIds: [...muters], bit: FLAG.read });
  const alerted = alertedUsers(content, filters.alertWords);
  if (alerted.length > 0) flagged.push({ userIds: alerted, bit: FLAG.has_alert_word });

  const now = new Date();
  const newMessage = {
    realmId: actor.realm.id,
    senderId: actor.user.id,
    recipientId,
    channelId: channel?.id ?? null,
    topic,
    topicKey: topicKey(topic),
    content,
    renderedContent: result.html,
    dateSent: now,
    sendingClient: input.client,
    isMeMessage: result.isMeMessage,
    hasAttachment: claimable.length > 0,
    hasImage: result.hasImage,
    hasLink: result.hasLink,
  };
  const meta = { realmId: actor.realm.id, requestId: actor.requestId };

  // Topic policies the message changes: the sender's automatic follow/unmute, and mentioned users who follow
  // topics they are mentioned in (unless they muted or already follow it).
  const policies: TopicPolicyChange[] = [];
  let automatic: number | undefined;
  if (channel && facts) {
    const change = (userId: number, policy: VisibilityPolicy) => ({
      userId,
      channelId: channel.id,
      topicName: topic,
      topicKey: newMessage.topicKey,
      policy,
    });
    const policy = actor.user.isBot ? null : automaticPolicyOnSend(actor.user, facts);
    if (policy !== null) {
      automatic = policy;
      policies.push(change(actor.user.id, policy));
    }
    const subscribedMentioned = facts.mentionedSubscribed;
    for (const user of mentionedUsersRecords) {
      if (!user.automaticallyFollowTopicsWhereMentioned || user.isBot || !user.isActive || user.id === actor.user.id)
        continue;
      if (!subscribedMentioned.has(user.id)) continue;
      const current = facts.mentionedPolicies.get(user.id) ?? 0;
      if (current === VISIBILITY_MUTED || current === VISIBILITY_FOLLOWED) continue;
      policies.push(change(user.id, VISIBILITY_FOLLOWED));
    }
  }

  // The message.sent envelope is completed by the statement: message id, receivers (sender first) and flags.
  const placeholder: StoredMessage = {
    ...newMessage,
    id: 0,
    lastEditTime: null,
    dmUserIds: target.kind === 'direct' ? target.participants.map((u) => u.id) : null,
  };
  const record = messageRecord(
    placeholder,
    actor.user,
    actor.realm,
    channel ? channel.name : displayRecipientUsers(target.kind === 'direct' ? target.participants : []),
    [],
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
    delivery: { channelId: channel?.id ?? null, extraUserIds, baseFlags, flagged },
    sentEvent,
    otherEvents: policies.map((c) => userTopicEvent(c, now, meta)),
    policies,
    setFirstMessageId: channel !== null && channel.firstMessageId === null,
  };
  if (channel && !facts) {
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

  return {
    write,
    claimable,
    placeholder,
    meta,
    channel,
    automatic,
    checked: {
      channelId: channel?.id ?? null,
      participantIds: target.kind === 'direct' ? target.participants.map((u) => u.id) : [],
      topic,
      content,
      renderedContent: result.html,
    },
  };
}

async function commitSend(domain: Domain, prepared: PreparedSend, options: SendOptions): Promise<SendResult> {
  const { write, claimable, placeholder, meta, channel } = prepared;
  let automatic = prepared.automatic;
  let sent: SentRows;
  const alongside = options.alongside;
  if (claimable.length === 0 && alongside) {
    // One plain SQL transaction (no Prisma round trips): the message, the further writes and their events.
    sent = await domain.store.sql.transaction(async (executor) => {
      const rows = await domain.messages.send(write, executor);
      await writeOutboxWith(executor, await alongside(executor, rows.messageId));
      return rows;
    });
    domain.store.committed();
  } else if (claimable.length === 0) {
    // The common case: one statement, which is its own transaction.
    sent = await domain.messages.send(write);
    domain.store.committed();
  } else {
    sent = await domain.store.transaction(async (tx) => {
      const rows = await domain.messages.send(write, inTransaction(tx));
      const events =
        claimable.length === 0
          ? []
          : await claimAttachments(domain, tx, claimable, { ...placeholder, id: rows.messageId }, meta);
      if (alongside) events.push(...(await alongside(inTransaction(tx), rows.messageId)));
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

/** checkCanPost only needs to know that the sender has an active subscription. */
function subscribedMarker(actor: Actor, channel: Channel): Subscription {
  return {
    userId: actor.user.id,
    channelId: channel.id,
    active: true,
    isMuted: false,
    pinToTop: false,
    color: '',
    desktopNotifications: null,
    audibleNotifications: null,
    pushNotifications: null,
    emailNotifications: null,
    wildcardMentionsNotify: null,
  };
}
