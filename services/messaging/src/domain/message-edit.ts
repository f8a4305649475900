import { createHash } from 'node:crypto';
import { ConfabError, invalid } from '@confab/errors';
import { ROLE_MODERATOR } from '@confab/identity';
import { isResolvedTopic, RESOLVED_TOPIC_PREFIX } from '@confab/zulip';
import { updateAttachmentReferences } from './attachments.js';
import { accessChannelById, canAccessHistory, checkCanPost } from './channel-access.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { postEditNotices } from './edit-notices.js';
import { accessMessage } from './fetch.js';
import { commitEdit } from './message-edit-commit.js';
import type { EditPlan, PropagateMode } from './edit-plan.js';
import { isAdmin } from './permissions.js';
import { alertedUsers } from './personal-filters.js';
import { checkGroupMentions, checkTopicsPolicy, checkWildcards, mentionedUsers } from './send-checks.js';
import { firstUnprintable, MAX_TOPIC_LENGTH, normalizeContent, topicKey, truncate } from './text.js';
import type { Channel, ChannelPermission, StoredMessage, Subscription } from './types.js';

/**
 * Editing and moving messages: PATCH /messages/{message_id}, Zulip's check_update_message. This file decides
 * whether an edit is allowed and what it changes; message-edit-commit.ts writes it and its events.
 */

export interface EditInput {
  content?: string;
  topic?: string;
  streamId?: number;
  propagateMode: PropagateMode;
  prevContentSha256?: string;
  /** send_notification_to_old_thread and send_notification_to_new_thread. */
  notifyOldThread: boolean;
  notifyNewThread: boolean;
}

/** Zulip allows 20 seconds past each limit (the client shows the limit a little early; the network is slow). */
const LIMIT_BUFFER_MS = 20_000;

const isModerator = (actor: Actor) => actor.user.role <= ROLE_MODERATOR;
const ageMs = (message: StoredMessage) => Date.now() - message.dateSent.getTime();
const pastLimit = (message: StoredMessage, limitSeconds: number | null) =>
  limitSeconds !== null && ageMs(message) > limitSeconds * 1000 + LIMIT_BUFFER_MS;

/** Zulip's validate_user_can_edit_message: only the sender edits content, within the organization's limit. */
export function checkCanEditContent(actor: Actor, message: StoredMessage): void {
  if (!actor.realm.allowMessageEditing) throw invalid('Your organization has turned off message editing');
  if (message.senderId !== actor.user.id) throw invalid("You don't have permission to edit this message");
  if (pastLimit(message, actor.realm.messageContentEditLimitSeconds))
    throw invalid('The time limit for editing this message has passed');
}

async function channelPermission(domain: Domain, actor: Actor, channel: Channel, setting: ChannelPermission) {
  return domain.permissions.has(actor.user, actor.realm, channel.permissions[setting]);
}

const administers = (domain: Domain, actor: Actor, channel: Channel) =>
  channelPermission(domain, actor, channel, 'can_administer_channel_group');

/** Zulip's can_move_messages_within_channel. */
async function canMoveWithin(domain: Domain, actor: Actor, channel: Channel): Promise<boolean> {
  if (isAdmin(actor.user) || (await administers(domain, actor, channel))) return true;
  return channelPermission(domain, actor, channel, 'can_move_messages_within_channel_group');
}

/** Zulip's can_edit_topic: the organization's permission, or the channel's in either channel. */
async function canEditTopic(domain: Domain, actor: Actor, from: Channel, to: Channel): Promise<boolean> {
  if (await domain.permissions.realmPermission(actor.user, actor.realm, 'can_move_messages_between_topics_group'))
    return true;
  if (await canMoveWithin(domain, actor, from)) return true;
  return from.id !== to.id && canMoveWithin(domain, actor, to);
}

/** Zulip's can_resolve_topics. */
async function canResolveTopics(domain: Domain, actor: Actor, from: Channel, to: Channel): Promise<boolean> {
  if (await domain.permissions.realmPermission(actor.user, actor.realm, 'can_resolve_topics_group')) return true;
  if (await channelPermission(domain, actor, from, 'can_resolve_topics_group')) return true;
  return from.id !== to.id && channelPermission(domain, actor, to, 'can_resolve_topics_group');
}

/** Zulip's can_move_messages_out_of_channel. */
async function canMoveOut(domain: Domain, actor: Actor, channel: Channel): Promise<boolean> {
  if (isAdmin(actor.user)) return true;
  if (await domain.permissions.realmPermission(actor.user, actor.realm, 'can_move_messages_between_channels_group'))
    return true;
  if (await administers(domain, actor, channel)) return true;
  return channelPermission(domain, actor, channel, 'can_move_messages_out_of_channel_group');
}

/** The requested topic as Zulip reads it: stripped, the empty topic's names mean '', unchanged means no edit. */
function requestedTopic(actor: Actor, message: StoredMessage, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let topic = raw.trim();
  if (topic === actor.realm.emptyTopicDisplayName || topic === '(no topic)') topic = '';
  return topic === message.topic ? undefined : topic;
}

/** Zulip's validate_message_edit_payload: the request's shape, before any permission. */
function validatePayload(
  message: StoredMessage,
  input: EditInput,
  topic: string | undefined,
  emptyTopicDisplayName: string,
): void {
  const { content, streamId } = input;
  if (topic === undefined && content === undefined && streamId === undefined) throw invalid('Nothing to change');
  if (message.channelId === null) {
    if (streamId !== undefined) throw invalid('Direct messages cannot be moved to channels.');
    if (topic !== undefined) throw invalid('Direct messages cannot have topics.');
  }
  if (input.propagateMode !== 'change_one' && topic === undefined && streamId === undefined)
    throw invalid('Invalid propagate_mode without topic edit');
  if (topic === RESOLVED_TOPIC_PREFIX.trim() || topic === `${RESOLVED_TOPIC_PREFIX}${emptyTopicDisplayName}`)
    throw invalid('General chat cannot be marked as resolved');
  if (topic !== undefined) {
    const bad = firstUnprintable(topic);
    if (bad !== null) throw invalid(`Invalid character in topic, at position ${bad}!`);
  }
  if (streamId !== undefined && content !== undefined)
    throw invalid('Cannot change message content while changing channel');
  if (input.prevContentSha256 !== undefined) {
    const current = createHash('sha256').update(message.content).digest('hex');
    if (current !== input.prevContentSha256) {
      throw new ConfabError("'prev_content_sha256' value does not match the expected value.", {
        code: 'EXPECTATION_MISMATCH',
      });
    }
  }
}

/** Zulip resolves a topic by prefixing "✔ "; it strips every leading ✔ and space when unresolving. */
function resolutionOf(orig: string, target: string, requested: string | undefined) {
  if (requested === undefined) return { resolved: false, unresolved: false };
  return {
    resolved:
      isResolvedTopic(target) && !isResolvedTopic(orig) && requested.slice(RESOLVED_TOPIC_PREFIX.length) === orig,
    unresolved: isResolvedTopic(orig) && !isResolvedTopic(target) && orig.replace(/^[✔ ]+/u, '') === target,
  };
}

/** Zulip's check_time_limit_for_change_all_propagate_mode: everyone but moderators moves only recent messages. */
async function checkChangeAllLimit(
  domain: Domain,
  actor: Actor,
  message: StoredMessage,
  channel: Channel,
  limits: { topic: boolean; channel: boolean },
): Promise<void> {
  const candidates = [
    limits.topic ? actor.realm.moveWithinChannelLimitSeconds : null,
    limits.channel ? actor.realm.moveBetweenChannelsLimitSeconds : null,
  ].filter((l): l is number => l !== null);
  if (candidates.length === 0) return;
  const deadline = Date.now() - (Math.min(...candidates) * 1000 + LIMIT_BUFFER_MS);
  const sub = await domain.channels.subscription(actor.user.id, channel.id);
  const inTopic = await domain.edits.topicMessageDates(channel.recipientId, topicKey(message.topic), {
    receivedBy: canAccessHistory(actor, channel, sub?.active ? sub : null) ? undefined : actor.user.id,
  });
  const allowed = inTopic.filter((m) => m.dateSent.getTime() > deadline);
  if (allowed.length === inTopic.length) return;
  throw new ConfabError(
    `You only have permission to move the ${allowed.length}/${inTopic.length} most recent messages in this topic.`,
    {
      code: 'MOVE_MESSAGES_TIME_LIMIT_EXCEEDED',
      data: {
        first_message_id_allowed_to_move: allowed[0]?.id ?? null,
        total_messages_in_topic: inTopic.length,
        total_messages_allowed_to_move: allowed.length,
      },
    },
  );
}

async function renderEdit(
  domain: Domain,
  actor: Actor,
  message: StoredMessage,
  channel: Channel | null,
  raw: string,
): Promise<NonNullable<EditPlan['content']>> {
  // Zulip replaces content that is only whitespace with "(deleted)".
  const content = raw.trimEnd() === '' ? '(deleted)' : normalizeContent(raw);
  const rendered = await domain.renderer.render(actor.realm, content, actor.user);
  const topicParticipants = channel ? await checkWildcards(domain, actor, channel, message.topic, rendered) : [];
  await checkGroupMentions(domain, actor, rendered.mentionedGroupIds);
  return {
    change: {
      content,
      renderedContent: rendered.html,
      isMeMessage: rendered.isMeMessage,
      hasImage: rendered.hasImage,
      hasLink: rendered.hasLink,
    },
    rendered,
    mentioned: await mentionedUsers(domain, rendered),
    topicParticipants,
    alerted: alertedUsers(content, (await domain.directory.personalFilters(actor.realm.id)).alertWords),
  };
}

/** PATCH /messages/{message_id}. */
export async function editMessage(
  domain: Domain,
  actor: Actor,
  messageId: number,
  input: EditInput,
): Promise<{ detached_uploads: unknown[] }> {
  const { message, channel } = await accessMessage(domain, actor, messageId);
  if (input.content !== undefined) checkCanEditContent(actor, message);
  const topic = requestedTopic(actor, message, input.topic);
  validatePayload(message, input, topic, actor.realm.emptyTopicDisplayName);

  const plan: EditPlan = { message, origChannel: channel, propagateMode: input.propagateMode };
  let resolution = { resolved: false, unresolved: false };
  if (channel) {
    const targetTopic = topic === undefined ? message.topic : truncate(topic, MAX_TOPIC_LENGTH, '...');
    let target = channel;
    let targetSub: Subscription | null = null;
    if (input.streamId !== undefined && input.streamId !== channel.id) {
      const access = await accessChannelById(domain, actor, input.streamId);
      target = access.channel;
      targetSub = access.sub?.active ? access.sub : null;
    }
    const moved = topic !== undefined || target.id !== channel.id;
    if (moved || targetTopic !== '') checkTopicsPolicy(actor, target, targetTopic);
    resolution = resolutionOf(message.topic, targetTopic, topic);
    const { resolved, unresolved } = resolution;
    if (topic !== undefined) {
      if (resolved || unresolved) {
        if (!(await canResolveTopics(domain, actor, channel, target)))
          throw invalid("You don't have permission to resolve topics in this channel.");
      } else {
        if (!(await canEditTopic(domain, actor, channel, target)))
          throw invalid("You don't have permission to edit this message");
        if (!isModerator(actor) && pastLimit(message, actor.realm.moveWithinChannelLimitSeconds))
          throw invalid("The time limit for editing this message's topic has passed.");
      }
      plan.topic = targetTopic;
    }
    if (target.id !== channel.id) {
      if (!(await canMoveOut(domain, actor, channel))) throw invalid("You don't have permission to move this message");
      await checkCanPost(domain, actor, target, targetSub);
      if (!isModerator(actor) && pastLimit(message, actor.realm.moveBetweenChannelsLimitSeconds))
        throw invalid("The time limit for editing this message's channel has passed");
      plan.targetChannel = target;
    }
    if (input.propagateMode === 'change_all' && !isModerator(actor) && moved && !resolved && !unresolved) {
      await checkChangeAllLimit(domain, actor, message, channel, {
        topic: topic !== undefined,
        channel: target.id !== channel.id,
      });
    }
  }
  if (input.content !== undefined) plan.content = await renderEdit(domain, actor, message, channel, input.content);
  const outcome = await commitEdit(domain, actor, plan);
  await postEditNotices(domain, actor, plan, outcome, {
    oldThread: input.notifyOldThread,
    newThread: input.notifyNewThread,
    ...resolution,
  });
  if (!plan.content) return { detached_uploads: [] };
  const detached = await updateAttachmentReferences(domain, actor, message, plan.content.rendered.linkedUploadPaths);
  return { detached_uploads: detached };
}
