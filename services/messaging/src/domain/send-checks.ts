import { ConfabError, invalid, missingArgument } from '@confab/errors';
import { extractChannelIndicator, extractDirectRecipients } from './addressee.js';
import { checkCanPost } from './channel-access.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { isGuest } from './permissions.js';
import type { Rendered } from './render.js';
import type { SendInput } from './send-input.js';
import { checkChannelName, firstUnprintable, normalizeTopic, topicKey } from './text.js';
import { OUTGOING_WEBHOOK_BOT, type Channel, type SendFacts, type Subscription, type User } from './types.js';

/**
 * The checks of a send before anything is written (Zulip's check_message): the addressee (channel or direct
 * participants) and whether the sender may reach it, the channel's topics policy, and the permission of group and
 * wildcard mentions. Editing a message applies the same mention and topic checks.
 */

/** Zulip's Realm.WILDCARD_MENTION_THRESHOLD: above this many subscribers or participants, wildcards need permission. */
export const WILDCARD_MENTION_THRESHOLD = 15;

export type Target =
  { kind: 'channel'; indicator: string | number; topic: string } | { kind: 'direct'; participants: User[] };

export async function resolveChannel(domain: Domain, actor: Actor, indicator: string | number): Promise<Channel> {
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
export async function checkCanSendDirect(domain: Domain, actor: Actor, participants: readonly User[]): Promise<void> {
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

export function checkTopicsPolicy(actor: Actor, channel: Channel, topic: string): void {
  let policy = channel.topicsPolicy;
  if (policy === 'inherit') policy = actor.realm.mandatoryTopics ? 'disable_empty_topic' : 'allow_empty_topic';
  if (policy === 'disable_empty_topic' && topic === '') throw invalid('Topics are required in this organization.');
  if (policy === 'empty_topic_only' && topic !== '') {
    throw invalid(`Only the "${actor.realm.emptyTopicDisplayName}" topic is allowed in this channel.`);
  }
}

export async function resolveTarget(domain: Domain, actor: Actor, input: SendInput): Promise<Target> {
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
export async function checkGroupMentions(domain: Domain, actor: Actor, groupIds: readonly number[]): Promise<void> {
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

export async function checkWildcards(
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
export async function mentionedUsers(domain: Domain, rendered: Rendered): Promise<number[]> {
  const ids = new Set(rendered.mentionedUserIds);
  if (rendered.mentionedGroupIds.length > 0) {
    for (const members of (await domain.readModel.groupMembers(rendered.mentionedGroupIds)).values())
      for (const id of members) ids.add(id);
  }
  return [...ids];
}

/** Phase 1: `queue_id` and `local_id` come together and hold no NUL. */
export function checkClientIds(input: SendInput): void {
  for (const [name, value] of [
    ['queue_id', input.queueId],
    ['local_id', input.localId],
  ] as const) {
    if (value?.includes('\u0000')) throw invalid(`Invalid ${name}`);
  }
  if ((input.queueId === undefined) !== (input.localId === undefined)) {
    throw missingArgument(input.queueId === undefined ? 'queue_id' : 'local_id');
  }
}

/** Where a checked message goes, rendered, with who it mentions. */
export interface Addressed {
  channel: Channel | null;
  /** The direct message's participants (empty for a channel message). */
  participants: User[];
  topic: string;
  recipientId: number;
  /** Read before writing only where the statement cannot decide alone (mentions, private channels, guests). */
  facts: SendFacts | null;
  rendered: Rendered;
  mentioned: number[];
}

/** Phase 2: the addressee, whether the sender may post there, and the rendering (Zulip's check_message). */
export async function checkAddressee(
  domain: Domain,
  actor: Actor,
  input: SendInput,
  content: string,
): Promise<Addressed> {
  const target = await resolveTarget(domain, actor, input);
  const render = async () => domain.renderer.render(actor.realm, content, actor.user);
  if (target.kind === 'direct') {
    await checkCanSendDirect(domain, actor, target.participants);
    const recipientId = await domain.messages.directRecipient(
      actor.realm.id,
      target.participants.map((u) => u.id),
    );
    const rendered = await render();
    const mentioned = await mentionedUsers(domain, rendered);
    return {
      channel: null,
      participants: target.participants,
      topic: '',
      recipientId,
      facts: null,
      rendered,
      mentioned,
    };
  }
  const channel = await resolveChannel(domain, actor, target.indicator);
  // An outgoing webhook bot answers where it was mentioned, whatever the channel's permissions (Zulip's
  // skip_stream_access_check, which Zulip allows only for these bots).
  const skipAccess = input.skipChannelAccessCheck === true && actor.user.botType === OUTGOING_WEBHOOK_BOT;
  const topic = normalizeTopic(target.topic, actor.realm.emptyTopicDisplayName);
  const rendered = await render();
  const mentioned = await mentionedUsers(domain, rendered);
  let facts: SendFacts | null = null;
  // Mentions (followers), private channels and guests need the subscription and policies read first; for the
  // common message the write statement itself decides the sender's automatic policy (one round trip).
  if (mentioned.length > 0 || channel.inviteOnly || isGuest(actor.user)) {
    // Whether the topic existed is judged on what the sender may see (Zulip avoids leaking protected history).
    facts = await domain.messages.sendFacts({
      userId: actor.user.id,
      channelId: channel.id,
      recipientId: channel.recipientId,
      topicKey: topicKey(topic),
      historyPublic: channel.historyPublicToSubscribers,
      mentionedUserIds: mentioned,
    });
    if (!actor.user.isSystemBot && !skipAccess)
      await checkCanPost(domain, actor, channel, facts.subscribed ? subscribedMarker(actor, channel) : null);
  } else if (!actor.user.isSystemBot && !skipAccess) {
    // The Notification Bot posts its notices wherever a topic moved (Zulip's internal_send_stream_message).
    await checkCanPost(domain, actor, channel, null);
  }
  checkTopicsPolicy(actor, channel, topic);
  return { channel, participants: [], topic, recipientId: channel.recipientId, facts, rendered, mentioned };
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
