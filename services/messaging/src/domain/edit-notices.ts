import { ConfabError } from '@confab/errors';
import { topicLinkSyntax } from '@confab/markdown';
import { messageNarrowUrl } from '@confab/zulip';
import { canAccessHistory } from './channel-access.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { removeMessage } from './message-actions.js';
import { silentMention } from './notice-text.js';
import type { EditOutcome, EditPlan } from './edit-plan.js';
import { sendMessage } from './send.js';
import { topicKey } from './text.js';
import type { Channel, User } from './types.js';

/**
 * The Notification Bot's notices of an edit, posted after it committed (Zulip's send_message_moved_breadcrumbs and
 * maybe_send_resolve_topic_notifications): "This topic was moved here from …", "… has marked this topic as
 * resolved.". The bot is the organization's system bot (docs/architecture.md, "Identity"); it posts anywhere.
 */
export interface EditNotices {
  /** send_notification_to_old_thread and send_notification_to_new_thread. */
  oldThread: boolean;
  newThread: boolean;
  /** The edit added or removed the ✔ prefix and changed nothing else of the topic's name. */
  resolved: boolean;
  unresolved: boolean;
}

/** Zulip's RESOLVE_TOPIC_UNDO_GRACE_PERIOD_SECONDS: undoing a resolution this soon deletes its notice instead. */
const RESOLVE_UNDO_GRACE_MS = 60_000;
const RESOLUTION_NOTICE = / has marked this topic as (?:un)?resolved\.$/;

/** Posts the notices an edit calls for; a notice that cannot be posted is logged, the edit stands. */
export async function postEditNotices(
  domain: Domain,
  actor: Actor,
  plan: EditPlan,
  outcome: EditOutcome,
  notices: EditNotices,
): Promise<void> {
  const from = plan.origChannel;
  if (!from || (plan.topic === undefined && plan.targetChannel === undefined)) return;
  const bot = await domain.readModel.notificationBot(actor.realm.id);
  if (!bot) {
    domain.logger.warn({ realm_id: actor.realm.id }, 'the Notification Bot is not known yet; no notices of the move');
    return;
  }
  try {
    await post(domain, actor, bot, plan, outcome, notices);
  } catch (err) {
    if (!(err instanceof ConfabError)) throw err;
    domain.logger.warn({ err: err.message, message_id: plan.message.id }, 'a notice of a moved topic was refused');
  }
}

async function post(
  domain: Domain,
  actor: Actor,
  bot: User,
  plan: EditPlan,
  { ids: movedIds, movedAll }: EditOutcome,
  notices: EditNotices,
): Promise<void> {
  const from = plan.origChannel!;
  const to = plan.targetChannel ?? from;
  const oldTopic = plan.message.topic;
  const newTopic = plan.topic ?? oldTopic;
  const botActor: Actor = { user: bot, realm: actor.realm, requestId: actor.requestId };
  const send = (channel: Channel, topic: string, content: string, readBy: readonly number[]) =>
    sendMessage(domain, botActor, {
      type: 'stream',
      to: String(channel.id),
      topic,
      content,
      queueId: undefined,
      localId: undefined,
      readBySender: true,
      client: 'Internal',
      readBy,
    });
  const user = silentMention(actor.user);
  const resolution = notices.resolved || notices.unresolved;

  if (resolution && !plan.content && !plan.targetChannel && !(await undoRecentNotice(domain, actor, bot, plan))) {
    const text = `${user} has marked this topic as ${notices.resolved ? 'resolved' : 'unresolved'}.`;
    await send(from, newTopic, text, await resolutionReaders(domain, actor, from, newTopic));
  }
  const count = movedIds.length;
  const empty = actor.realm.emptyTopicDisplayName;
  if (notices.newThread && (plan.targetChannel || !resolution)) {
    const moved = new Set(movedIds);
    const preexisting = (await visibleIds(domain, actor, to, newTopic)).some((id) => !moved.has(id));
    const old = topicLinkSyntax(from, oldTopic, empty);
    let text: string;
    if (movedAll && !preexisting) text = `This topic was moved here from ${old} by ${user}.`;
    else if (count === 1) {
      const link = messageNarrowUrl(actor.realm.url, to, newTopic, plan.message.id);
      text = `[A message](${link}) was moved here from ${old} by ${user}.`;
    } else text = `${count} messages were moved here from ${old} by ${user}.`;
    await send(to, newTopic, text, [actor.user.id]);
  }
  if (notices.oldThread) {
    const target = topicLinkSyntax(to, newTopic, empty);
    let text: string;
    if (movedAll) text = `This topic was moved to ${target} by ${user}.`;
    else if (count === 1) text = `A message was moved from this topic to ${target} by ${user}.`;
    else text = `${count} messages were moved from this topic to ${target} by ${user}.`;
    await send(from, oldTopic, text, [actor.user.id]);
  }
}

/** The topic's messages the mover can see (all of them where the channel's history is open to them). */
async function visibleIds(domain: Domain, actor: Actor, channel: Channel, topic: string): Promise<number[]> {
  const sub = await domain.channels.subscription(actor.user.id, channel.id);
  const seesAll = canAccessHistory(actor, channel, sub?.active ? sub : null);
  const messages = await domain.edits.topicMessageDates(channel.recipientId, topicKey(topic), {
    receivedBy: seesAll ? undefined : actor.user.id,
  });
  return messages.map((m) => m.id);
}

/**
 * Who gets the notice of a resolution already read (Zulip's resolved_topic_notice_auto_read_policy): everyone but
 * users who chose "never", and followers of the topic who chose "except_followed"; the mover always.
 */
async function resolutionReaders(domain: Domain, actor: Actor, channel: Channel, topic: string): Promise<number[]> {
  const subscribers = (await domain.channels.subscribers([channel.id])).get(channel.id) ?? [];
  const followers = new Set(await domain.edits.topicFollowers(channel.id, topicKey(topic)));
  const unread = (u: User) =>
    !u.isBot &&
    (u.resolvedTopicNoticeAutoReadPolicy === 'never' ||
      (u.resolvedTopicNoticeAutoReadPolicy === 'except_followed' && followers.has(u.id)));
  const users = await domain.readModel.usersByIds(actor.realm.id, subscribers);
  return [...new Set([actor.user.id, ...users.filter((u) => !unread(u)).map((u) => u.id)])];
}

/**
 * Resolving and unresolving again within a minute deletes the first notice instead of posting a second one
 * (Zulip's maybe_delete_previous_resolve_topic_notification). True when it did.
 */
async function undoRecentNotice(domain: Domain, actor: Actor, bot: User, plan: EditPlan): Promise<boolean> {
  const channel = plan.origChannel!;
  const lastId = await domain.edits.lastInTopic(channel.recipientId, topicKey(plan.topic ?? plan.message.topic));
  const last = lastId === null ? null : await domain.messages.messageById(lastId);
  if (!last || last.senderId !== bot.id || !RESOLUTION_NOTICE.test(last.content)) return false;
  if (Date.now() - last.dateSent.getTime() > RESOLVE_UNDO_GRACE_MS) return false;
  try {
    await removeMessage(domain, last, { realmId: actor.realm.id, requestId: actor.requestId });
  } catch (err) {
    // Deleted meanwhile by someone else: undone all the same.
    if (!(err instanceof ConfabError)) throw err;
  }
  return true;
}
