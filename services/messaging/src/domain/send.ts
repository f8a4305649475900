import { ConfabError, invalid } from '@confab/errors';
import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import type { TopicPolicyChange } from '../repositories/user_topics.repository.js';
import { extractChannelIndicator, extractDirectRecipients } from './addressee.js';
import { claimAttachments } from './attachments.js';
import { checkCanPost } from './channel-access.js';
import type { Actor, Domain } from './context.js';
import { defaultReadBySender } from './client.js';
import { FLAG, flagNames } from './flags.js';
import { displayRecipientUsers, messageRecord } from './message-records.js';
import type { Rendered } from './render.js';
import { checkChannelName, firstUnprintable, normalizeContent, normalizeTopic, topicKey } from './text.js';
import { automaticPolicyOnSend, userTopicEvent } from './topic-policy.js';
import type { Channel, StoredMessage, User } from './types.js';
import { VISIBILITY_FOLLOWED, VISIBILITY_MUTED } from './types.js';

/** Zulip's Realm.WILDCARD_MENTION_THRESHOLD: above this many subscribers or participants, wildcards need permission. */
export const WILDCARD_MENTION_THRESHOLD = 15;

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

type Target = { kind: 'channel'; indicator: string | number; topic: string } | { kind: 'direct'; participants: User[] };

async function resolveChannel(domain: Domain, actor: Actor, indicator: string | number): Promise<Channel> {
  if (typeof indicator === 'number') {
    const channel = await domain.directory.channel(indicator);
    if (!channel || channel.realmId !== actor.realm.id) {
      throw invalid(`Channel with ID '${indicator}' does not exist`, 'STREAM_DOES_NOT_EXIST', { stream_id: indicator });
    }
    return channel;
  }
  const name = indicator.trim();
  checkChannelName(name);
  const channel = await domain.directory.channelByName(actor.realm.id, name);
  if (!channel)
    throw invalid(`Channel '${escapeName(name)}' does not exist`, 'STREAM_DOES_NOT_EXIST', {
      stream: escapeName(name),
    });
  return channel;
}

/** Zulip HTML-escapes the name it echoes back in STREAM_DOES_NOT_EXIST. */
function escapeName(name: string): string {
  return name.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;' })[c]!,
  );
}

async function resolveParticipants(domain: Domain, actor: Actor, to: string[] | number[]): Promise<User[]> {
  if (to.length === 0) throw invalid('Message must have recipients');
  let users: User[];
  if (typeof to[0] === 'string') {
    const emails = to as string[];
    const found = new Map(
      (await domain.readModel.usersByEmails(actor.realm.id, emails)).map((u) => [u.email.toLowerCase(), u]),
    );
    users = emails.map((email) => {
      const user = found.get(email.toLowerCase());
      if (!user) throw invalid(`Invalid email '${email}'`);
      return user;
    });
  } else {
    const ids = to as number[];
    const found = new Map((await domain.readModel.usersByIds(actor.realm.id, ids)).map((u) => [u.id, u]));
    users = ids.map((id) => {
      const user = found.get(id);
      if (!user) throw invalid(`Invalid user ID ${id}`);
      return user;
    });
  }
  for (const user of users) if (!user.isActive) throw invalid(`'${user.email}' is no longer using Zulip.`);
  const all = new Map(users.map((u) => [u.id, u]));
  all.set(actor.user.id, actor.user);
  return [...all.values()].sort((a, b) => a.id - b.id);
}

/** Zulip's check_can_send_direct_message (the organization's direct-message policies). */
async function checkCanSendDirect(domain: Domain, actor: Actor, participants: readonly User[]): Promise<void> {
  if (actor.user.isBot) return;
  const others = participants.filter((u) => u.id !== actor.user.id);
  if (others.every((u) => u.isBot)) return;
  const policy = actor.realm.permissions.direct_message_permission_group ?? 'role:everyone';
  let anyone = false;
  for (const user of participants) if (await domain.permissions.has(user, actor.realm, policy)) anyone = true;
  if (!anyone) {
    throw invalid(
      policy === 'role:nobody'
        ? 'Direct messages are disabled in this organization.'
        : 'This conversation does not include any users who can authorize it.',
    );
  }
  if (await domain.permissions.realmPermission(actor.user, actor.realm, 'direct_message_initiator_group')) return;
  if (actor.realm.permissions.direct_message_initiator_group === undefined) return;
  const recipientId = await domain.messages.directRecipient(
    actor.realm.id,
    participants.map((u) => u.id),
  );
  if (!(await domain.messages.hasMessages(recipientId))) {
    throw invalid('You do not have permission to initiate direct message conversations.');
  }
}

function checkTopicsPolicy(actor: Actor, channel: Channel, topic: string): void {
  let policy = channel.topicsPolicy;
  if (policy === 'inherit') policy = actor.realm.mandatoryTopics ? 'disable_empty_topic' : 'allow_empty_topic';
  if (policy === 'disable_empty_topic' && topic === '') throw invalid('Topics are required in this organization.');
  if (policy === 'empty_topic_only' && topic !== '') {
    throw invalid(`Only the "${actor.realm.emptyTopicDisplayName}" topic is allowed in this channel.`);
  }
}

async function resolveTarget(domain: Domain, actor: Actor, input: SendInput): Promise<Target> {
  if (input.type === 'stream' || input.type === 'channel') {
    if (input.to === undefined) throw invalid('Missing channel');
    const indicator = extractChannelIndicator(input.to);
    if (input.topic === undefined) throw invalid('Missing topic');
    const bad = firstUnprintable(input.topic.trim());
    if (bad !== null) throw invalid(`Invalid character in topic, at position ${bad}!`);
    return { kind: 'channel', indicator, topic: input.topic };
  }
  const to = input.to === undefined ? [] : extractDirectRecipients(input.to);
  if (to.length === 0) throw invalid('Message must have recipients');
  return { kind: 'direct', participants: await resolveParticipants(domain, actor, to) };
}

/** Group mentions are checked against each group's can_mention_group. */
async function checkGroupMentions(domain: Domain, actor: Actor, groupIds: readonly number[]): Promise<void> {
  if (groupIds.length === 0) return;
  const groups = await domain.directory.groupsOf(actor.realm.id);
  for (const id of groupIds) {
    const group = groups.get(id);
    if (!group) continue;
    if (!(await domain.permissions.has(actor.user, actor.realm, group.canMentionGroup))) {
      throw invalid(`You are not allowed to mention user group '${group.name}'.`);
    }
  }
}

async function checkWildcards(
  domain: Domain,
  actor: Actor,
  channel: Channel,
  topic: string,
  rendered: Rendered,
): Promise<number[]> {
  let participants: number[] = [];
  const allowed = () => domain.permissions.realmPermission(actor.user, actor.realm, 'can_mention_many_users_group');
  if (rendered.wildcards.channel) {
    const count = await domain.channels.subscriberCount(channel.id);
    if (count > WILDCARD_MENTION_THRESHOLD && !(await allowed())) {
      throw new ConfabError('You do not have permission to use channel wildcard mentions in this channel.', {
        code: 'STREAM_WILDCARD_MENTION_NOT_ALLOWED',
      });
    }
  }
  if (rendered.wildcards.topic) {
    participants = [
      ...new Set([...(await domain.messages.topicParticipants(channel.recipientId, topicKey(topic))), actor.user.id]),
    ];
    if (participants.length > WILDCARD_MENTION_THRESHOLD && !(await allowed())) {
      throw new ConfabError('You do not have permission to use topic wildcard mentions in this topic.', {
        code: 'TOPIC_WILDCARD_MENTION_NOT_ALLOWED',
      });
    }
  }
  return participants;
}

/** Users mentioned directly or through a mentioned group (they get the `mentioned` flag). */
async function mentionedUsers(domain: Domain, rendered: Rendered): Promise<number[]> {
  const ids = new Set(rendered.mentionedUserIds);
  if (rendered.mentionedGroupIds.length > 0) {
    for (const members of (await domain.readModel.groupMembers(rendered.mentionedGroupIds)).values())
      for (const id of members) ids.add(id);
  }
  return [...ids];
}

/** POST /messages: every rule of Zulip's check_message, then one transaction for the message, its rows and events. */
export async function sendMessage(domain: Domain, actor: Actor, input: SendInput): Promise<SendResult> {
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
  if (target.kind === 'channel') {
    channel = await resolveChannel(domain, actor, target.indicator);
    topic = normalizeTopic(target.topic, actor.realm.emptyTopicDisplayName);
    const sub = await domain.channels.subscription(actor.user.id, channel.id);
    await checkCanPost(domain, actor, channel, sub?.active ? sub : null);
    checkTopicsPolicy(actor, channel, topic);
    recipientId = channel.recipientId;
  } else {
    await checkCanSendDirect(domain, actor, target.participants);
    recipientId = await domain.messages.directRecipient(
      actor.realm.id,
      target.participants.map((u) => u.id),
    );
  }

  const rendered = await domain.renderer.render(actor.realm, content, actor.user);
  let participants: number[] = [];
  if (channel) participants = await checkWildcards(domain, actor, channel, topic, rendered);
  await checkGroupMentions(domain, actor, rendered.mentionedGroupIds);
  const mentioned = await mentionedUsers(domain, rendered);
  const readBySender = input.readBySender ?? defaultReadBySender(input.client);
  const claimable = await domain.attachments.claimable(actor.realm.id, actor.user.id, rendered.linkedUploadPaths);

  // Mentioned bots that are not subscribed still receive the message (Zulip's um_eligible default bots).
  let extraUserIds: number[] =
    target.kind === 'direct' ? target.participants.filter((u) => u.isActive).map((u) => u.id) : [];
  if (channel && rendered.mentionedUserIds.length > 0) {
    const bots = (await domain.readModel.usersByIds(actor.realm.id, rendered.mentionedUserIds)).filter(
      (u) => u.isBot && u.botType === 1 && u.isActive,
    );
    extraUserIds = bots.map((u) => u.id);
  }
  const baseFlags =
    (target.kind === 'direct' ? FLAG.is_private : 0) |
    (rendered.wildcards.channel && channel ? FLAG.stream_wildcard_mentioned : 0);
  const flagged: { userIds: number[]; bit: number }[] = [
    { userIds: mentioned, bit: FLAG.mentioned },
    { userIds: readBySender ? [actor.user.id] : [], bit: FLAG.read },
  ];
  if (channel && rendered.wildcards.topic) flagged.push({ userIds: participants, bit: FLAG.topic_wildcard_mentioned });

  const now = new Date();
  const newMessage = {
    realmId: actor.realm.id,
    senderId: actor.user.id,
    recipientId,
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

  const outcome = await domain.store.transaction(async (tx) => {
    const sent = await domain.messages.insertMessage(
      tx,
      newMessage,
      { channelId: channel?.id ?? null, extraUserIds, baseFlags, flagged: flagged.filter((f) => f.userIds.length > 0) },
      // Whether the topic existed is judged on what the sender may see (Zulip avoids leaking protected history).
      channel ? { mentionedUserIds: mentioned, historyPublic: channel.historyPublicToSubscribers } : null,
    );
    const message: StoredMessage = {
      ...newMessage,
      id: sent.messageId,
      lastEditTime: null,
      dmUserIds: target.kind === 'direct' ? target.participants.map((u) => u.id) : null,
    };
    const events: OutboxRecord[] = [];
    let automatic: number | undefined;
    if (channel && sent.topic) {
      if (channel.firstMessageId === null) await domain.channels.setFirstMessageId(tx, channel.id, message.id);
      const changes: TopicPolicyChange[] = [];
      const policy = actor.user.isBot ? null : automaticPolicyOnSend(actor.user, sent.topic);
      if (policy !== null) {
        automatic = policy;
        changes.push({
          userId: actor.user.id,
          channelId: channel.id,
          topicName: topic,
          topicKey: newMessage.topicKey,
          policy,
        });
      }
      const receivers = new Set(sent.userIds);
      const followers = (await domain.readModel.usersByIds(actor.realm.id, mentioned)).filter(
        (u) => u.automaticallyFollowTopicsWhereMentioned && !u.isBot && receivers.has(u.id) && u.id !== actor.user.id,
      );
      for (const user of followers) {
        const current = sent.topic.mentionedPolicies.get(user.id) ?? 0;
        if (current === VISIBILITY_MUTED || current === VISIBILITY_FOLLOWED) continue;
        changes.push({
          userId: user.id,
          channelId: channel.id,
          topicName: topic,
          topicKey: newMessage.topicKey,
          policy: VISIBILITY_FOLLOWED,
        });
      }
      if (changes.length > 0) {
        await domain.userTopics.setPolicies(tx, changes, now);
        for (const change of changes) events.push(userTopicEvent(change, now, meta));
      }
    }
    if (claimable.length > 0) events.push(...(await claimAttachments(domain, tx, claimable, message, meta)));
    const record = messageRecord(
      message,
      actor.user,
      actor.realm,
      channel ? channel.name : displayRecipientUsers(target.kind === 'direct' ? target.participants : []),
      [],
    );
    const flags: Record<string, string[]> = {};
    sent.userIds.forEach((userId, i) => {
      const names = flagNames(sent.flags[i] ?? 0);
      if (names.length > 0) flags[String(userId)] = names;
    });
    // The sender first: with thousands of receivers, they see their own message soonest.
    const userIds = sent.userIds.includes(actor.user.id)
      ? [actor.user.id, ...sent.userIds.filter((id) => id !== actor.user.id)]
      : sent.userIds;
    events.unshift(
      outboxRecord(
        contracts.messageSent,
        {
          message: record,
          user_ids: userIds,
          flags,
          stream: channel
            ? { name: channel.name, invite_only: channel.inviteOnly, is_web_public: channel.isWebPublic }
            : null,
          local_id: input.localId ?? null,
          sender_queue_id: input.queueId ?? null,
        },
        meta,
      ),
    );
    return { result: { id: message.id, automatic }, events };
  });
  if (channel?.firstMessageId === null) domain.directory.forgetChannel(channel.id);
  const result: SendResult = { id: outcome.id };
  if (outcome.automatic !== undefined) result.automatic_new_visibility_policy = outcome.automatic;
  return result;
}
