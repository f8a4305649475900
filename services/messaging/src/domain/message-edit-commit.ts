import { topicLinks } from '@confab/markdown';
import { invalid } from '@confab/errors';
import { contracts, outboxRecord, type OutboxRecord, type PayloadOf } from '@confab/events';
import { FLAG, flagNames } from '@confab/zulip';
import { canAccessHistory } from './channel-access.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { editNotify } from './edit-notify.js';
import type { EditHistoryEntry, EditUnit } from './edit-store.js';
import type { EditOutcome, EditPlan } from './edit-plan.js';
import { isGuest } from './permissions.js';
import { topicKey } from './text.js';
import { userTopicEvent } from './topic-policy.js';
import type { Channel, TopicPolicyChange, VisibilityPolicy } from './types.js';
import { VISIBILITY_FOLLOWED, VISIBILITY_MUTED, VISIBILITY_NONE, VISIBILITY_UNMUTED } from './types.js';

type UpdatePayload = PayloadOf<typeof contracts.messageUpdated>;

const setBit = (flags: number, bit: number, on: boolean) => (on ? flags | bit : flags & ~bit);

/** The messages that move with the edited one (Zulip's update_messages_for_topic_edit), as the editor sees them. */
async function movedMessageIds(actor: Actor, unit: EditUnit, plan: EditPlan, seesAll: boolean): Promise<number[]> {
  const { message, origChannel } = plan;
  const moved = plan.topic !== undefined || plan.targetChannel !== undefined;
  if (!moved || plan.propagateMode === 'change_one' || !origChannel) return [message.id];
  const ids = await unit.topicMessageIds(origChannel.recipientId, topicKey(message.topic), {
    fromId: plan.propagateMode === 'change_later' ? message.id : undefined,
    receivedBy: seesAll ? undefined : actor.user.id,
  });
  return [...new Set([...ids, message.id])].sort((a, b) => a - b);
}

/** New mention flags of each receiver of re-rendered content (Zulip's update_user_message_flags). */
function mentionFlags(plan: EditPlan, rows: ReadonlyMap<number, number>): Map<number, number> {
  const changes = new Map<number, number>();
  if (!plan.content) return changes;
  const { rendered, mentioned, topicParticipants, alerted } = plan.content;
  const mentionedSet = new Set(mentioned);
  const alertedSet = new Set(alerted);
  const participants = new Set(topicParticipants);
  const channelWildcard = plan.origChannel !== null && rendered.wildcards.channel;
  for (const [userId, flags] of rows) {
    let next = setBit(flags, FLAG.mentioned, mentionedSet.has(userId));
    next = setBit(next, FLAG.stream_wildcard_mentioned, channelWildcard);
    next = setBit(next, FLAG.topic_wildcard_mentioned, participants.has(userId));
    next = setBit(next, FLAG.has_alert_word, alertedSet.has(userId));
    if (next !== flags) changes.set(userId, next);
  }
  return changes;
}

/**
 * Moving to another channel (Zulip's do_update_message): users subscribed to the old channel but not the new one
 * lose their rows; of them, those who can no longer read the messages (all of them for a private channel, guests
 * for a public one) see them deleted. Subscribers of a channel without shared history get rows, read.
 */
async function moveRows(
  domain: Domain,
  actor: Actor,
  unit: EditUnit,
  plan: EditPlan,
  ids: readonly number[],
): Promise<{ losingRows: Set<number>; losingAccess: number[]; event: OutboxRecord | null }> {
  const from = plan.origChannel;
  const to = plan.targetChannel;
  if (!from || !to) return { losingRows: new Set(), losingAccess: [], event: null };
  const newSubscribers = new Set((await domain.channels.subscribers([to.id])).get(to.id) ?? []);
  const losingRows = new Set((await unit.everSubscribed(from.id)).filter((id) => !newSubscribers.has(id)));
  let losingAccess = [...losingRows];
  if (!to.inviteOnly) {
    const users = await domain.directory.usersByIds(actor.realm.id, losingAccess);
    losingAccess = users.filter((u) => isGuest(u)).map((u) => u.id);
  }
  if (!to.historyPublicToSubscribers) await unit.addRows([...newSubscribers], ids, FLAG.read);
  await unit.removeRows([...losingRows], ids);
  const event =
    losingAccess.length === 0
      ? null
      : outboxRecord(
          contracts.messageDeleted,
          {
            message_ids: [...ids],
            message_type: 'stream',
            stream_id: from.id,
            topic: plan.message.topic,
            user_ids: losingAccess.sort((a, b) => a - b),
          },
          { realmId: actor.realm.id, requestId: actor.requestId },
        );
  return { losingRows, losingAccess, event };
}

/**
 * Who is told of the edit, with their flags: the edited message's receivers, and, where the channel's history is
 * shared, its current subscribers (with `read`, as Zulip's subscriber_info), including those of the old channel on
 * a move; guests who only gained the messages by the move are left out, as in Zulip.
 */
export async function audience(
  domain: Pick<Domain, 'channels' | 'directory'>,
  realmId: number,
  plan: Pick<EditPlan, 'origChannel' | 'targetChannel'>,
  flags: ReadonlyMap<number, number>,
  losing: { losingRows: Set<number>; losingAccess: number[] } = { losingRows: new Set(), losingAccess: [] },
): Promise<Record<string, string[]>> {
  const notify: Record<string, string[]> = {};
  for (const [userId, bits] of flags) if (!losing.losingRows.has(userId)) notify[String(userId)] = flagNames(bits);
  const from = plan.origChannel;
  if (!from?.historyPublicToSubscribers) return notify;
  const to = plan.targetChannel ?? from;
  const subscribers = await domain.channels.subscribers([...new Set([from.id, to.id])]);
  const excluded = new Set(losing.losingAccess);
  const candidates = new Set(subscribers.get(to.id) ?? []);
  if (to.id !== from.id) {
    const oldSubscribers = new Set(subscribers.get(from.id) ?? []);
    for (const id of oldSubscribers) candidates.add(id);
    const newcomers = [...candidates].filter((id) => !oldSubscribers.has(id));
    for (const user of await domain.directory.usersByIds(realmId, newcomers)) if (isGuest(user)) excluded.add(user.id);
  }
  for (const id of candidates) if (!(String(id) in notify) && !excluded.has(id)) notify[String(id)] = ['read'];
  return notify;
}

/** Zulip's get_visibility_policy_after_merge: the more visible of the two policies wins. */
function mergedPolicy(a: VisibilityPolicy, b: VisibilityPolicy): VisibilityPolicy {
  const both = new Set([a, b]);
  if (both.has(VISIBILITY_FOLLOWED)) return VISIBILITY_FOLLOWED;
  if (both.has(VISIBILITY_UNMUTED)) return VISIBILITY_UNMUTED;
  if (both.has(VISIBILITY_NONE)) return VISIBILITY_NONE;
  return VISIBILITY_MUTED;
}

/** After a move: whether the old topic kept no message the mover can see (change_all moves them all). */
async function nothingLeft(actor: Actor, unit: EditUnit, plan: EditPlan, seesAll: boolean): Promise<boolean> {
  if (plan.propagateMode === 'change_all') return true;
  const left = await unit.topicMessageIds(plan.origChannel!.recipientId, topicKey(plan.message.topic), {
    receivedBy: seesAll ? undefined : actor.user.id,
    limit: 1,
  });
  return left.length === 0;
}

/**
 * When a whole topic moved (as far as the mover can see), users' follow and mute settings move with it, merged
 * with what they had for the destination (Zulip's do_update_message); users who lost the messages lose the policy.
 */
async function moveTopicPolicies(
  actor: Actor,
  unit: EditUnit,
  plan: EditPlan,
  context: { movedAll: boolean; losingAccess: readonly number[]; editTime: Date },
): Promise<OutboxRecord[]> {
  const { movedAll, losingAccess, editTime } = context;
  const from = plan.origChannel;
  if (!from) return [];
  const to = plan.targetChannel ?? from;
  const oldKey = topicKey(plan.message.topic);
  const newTopic = plan.topic ?? plan.message.topic;
  const newKey = topicKey(newTopic);
  if (from.id === to.id && oldKey === newKey) return [];
  if (!movedAll) return [];
  const before = await unit.topicPolicies(from.id, oldKey);
  const existing = await unit.topicPolicies(to.id, newKey);
  const losing = new Set(to.id === from.id ? [] : losingAccess);
  const changes: TopicPolicyChange[] = [];
  const change = (userId: number, channel: Channel, topicName: string, key: string, policy: VisibilityPolicy) =>
    changes.push({ userId, channelId: channel.id, topicName, topicKey: key, policy });
  for (const userId of new Set([...before.keys(), ...existing.keys()])) {
    if (before.has(userId)) change(userId, from, plan.message.topic, oldKey, VISIBILITY_NONE);
    if (losing.has(userId)) continue;
    const current = existing.get(userId) ?? VISIBILITY_NONE;
    const merged = mergedPolicy(before.get(userId) ?? VISIBILITY_NONE, current);
    if (merged !== current || (before.has(userId) && merged !== VISIBILITY_NONE))
      change(userId, to, newTopic, newKey, merged);
  }
  await unit.setTopicPolicies(changes, editTime);
  const meta = { realmId: actor.realm.id, requestId: actor.requestId };
  return changes.map((c) => userTopicEvent(c, editTime, meta));
}

/** Writes an edit in one transaction with its events: the rows, the history entries, update_message. */
export async function commitEdit(domain: Domain, actor: Actor, plan: EditPlan): Promise<EditOutcome> {
  const { message, origChannel } = plan;
  const editTime = new Date();
  const timestamp = Math.floor(editTime.getTime() / 1000);
  const target = plan.targetChannel ?? origChannel;
  const moved = plan.topic !== undefined || plan.targetChannel !== undefined;
  let seesAll = true;
  if (origChannel) {
    const sub = await domain.channels.subscription(actor.user.id, origChannel.id);
    seesAll = canAccessHistory(actor, origChannel, sub?.active ? sub : null);
  }
  return domain.db.writeSql(actor.realm.id, async ({ edits: unit }) => {
    const locked = await unit.lock(message.id);
    // Deleted or moved by someone else since it was checked: the caller tries again from the current state.
    if (!locked || locked.channelId !== message.channelId || locked.topicKey !== topicKey(message.topic))
      throw invalid('Invalid message(s)');
    const ids = await movedMessageIds(actor, unit, plan, seesAll);
    const rows = await unit.rows(message.id);
    const changes = mentionFlags(plan, rows);
    await unit.setFlags(message.id, changes);
    const flagsAfter = new Map([...rows, ...changes]);
    const losing = await moveRows(domain, actor, unit, plan, ids);

    const targetEntry: EditHistoryEntry = { user_id: actor.user.id, timestamp };
    if (plan.content) {
      targetEntry.prev_content = locked.content;
      targetEntry.prev_rendered_content = locked.renderedContent;
    }
    const othersEntry: EditHistoryEntry = { user_id: actor.user.id, timestamp };
    for (const entry of [targetEntry, othersEntry]) {
      if (plan.targetChannel && origChannel) Object.assign(entry, { prev_stream: origChannel.id, stream: target!.id });
      if (plan.topic !== undefined) Object.assign(entry, { prev_topic: message.topic, topic: plan.topic });
    }
    const newTopic = plan.topic ?? message.topic;
    await unit.apply({
      targetId: message.id,
      messageIds: ids,
      editTime,
      content: plan.content?.change,
      move:
        moved && target
          ? { recipientId: target.recipientId, channelId: target.id, topic: newTopic, topicKey: topicKey(newTopic) }
          : undefined,
      targetEntry,
      othersEntry,
    });
    const movedAll = moved && origChannel !== null && (await nothingLeft(actor, unit, plan, seesAll));

    const payload: UpdatePayload = {
      user_id: actor.user.id,
      edit_timestamp: timestamp,
      message_id: message.id,
      message_ids: ids,
      rendering_only: false,
      flags: await audience(domain, actor.realm.id, plan, flagsAfter, losing),
    };
    if (plan.content) {
      const { change } = plan.content;
      payload.orig_content = locked.content;
      payload.orig_rendered_content = locked.renderedContent;
      payload.content = change.content;
      payload.rendered_content = change.renderedContent;
      payload.is_me_message = change.isMeMessage;
      payload.notify = await editNotify(domain, actor, unit, plan, rows);
    }
    if (origChannel) {
      payload.stream_name = origChannel.name;
      payload.stream_id = origChannel.id;
      if (moved) payload.propagate_mode = plan.propagateMode;
    }
    if (plan.targetChannel) {
      payload.new_stream_id = plan.targetChannel.id;
      payload.orig_subject = message.topic;
    }
    if (plan.topic !== undefined) {
      payload.orig_subject = message.topic;
      payload.subject = plan.topic;
      payload.topic_links = topicLinks(await domain.directory.linkifiersOf(actor.realm.id), plan.topic);
    }
    const meta = { realmId: actor.realm.id, requestId: actor.requestId };
    const events = [outboxRecord(contracts.messageUpdated, payload, meta)];
    if (losing.event) events.push(losing.event);
    // New content with links to preview: the worker fetches them for this content (Zulip's embed_links on edits).
    if (plan.content && plan.content.rendered.linksForPreview.length > 0)
      events.push(
        outboxRecord(
          contracts.linkPreviewsRequested,
          {
            message_id: message.id,
            realm_id: actor.realm.id,
            content: plan.content.change.content,
            urls: plan.content.rendered.linksForPreview,
          },
          meta,
        ),
      );
    if (moved)
      events.push(
        ...(await moveTopicPolicies(actor, unit, plan, { movedAll, losingAccess: losing.losingAccess, editTime })),
      );
    return { result: { ids, movedAll }, events };
  });
}
