import type { ModelChannel, ModelUserTopic } from '../model.js';
import { newChannel } from './source.js';
import type { ZulipGroups } from './zulip-groups.js';
import { bool, num, rows, str, type LocalUser, type Row, type ZulipIds } from './zulip-tables.js';

/** Channels of a Zulip export with their subscriptions, what its recipients address, and users' topic visibility. */

/** Zulip's Recipient types. */
const PERSONAL = 1;
const STREAM = 2;
const DIRECT_MESSAGE_GROUP = 3;

/**
 * The streams as channels (numbered into `ids.channels`) with their subscribers; the recipients into
 * `ids.recipients`, and the members of direct message groups (their subscriptions) into `ids.huddleMembers`.
 */
export function readChannels(data: Row, ids: ZulipIds, local: LocalUser, groups: ZulipGroups): ModelChannel[] {
  for (const r of rows(data, 'zerver_recipient')) {
    const type = Number(r.type);
    const typeId = Number(r.type_id);
    ids.recipients.set(
      Number(r.id),
      type === STREAM
        ? { stream: typeId }
        : type === PERSONAL
          ? { user: typeId }
          : type === DIRECT_MESSAGE_GROUP
            ? { huddle: typeId }
            : {},
    );
  }
  const defaults = new Set(rows(data, 'zerver_defaultstream').map((d) => Number(d.stream)));
  const channels: ModelChannel[] = [];
  for (const s of rows(data, 'zerver_stream')) {
    const id = channels.length + 1;
    ids.channels.set(Number(s.id), id);
    channels.push(
      newChannel({
        id,
        sourceId: `stream ${String(s.id)} (${str(s.name)})`,
        name: str(s.name),
        description: str(s.description),
        inviteOnly: s.invite_only === true,
        historyPublicToSubscribers: s.history_public_to_subscribers !== false,
        isWebPublic: s.is_web_public === true,
        archived: s.deactivated === true,
        dateCreated: num(s.date_created) ?? Date.now() / 1000,
        creatorId: s.creator === null || s.creator === undefined ? null : local(s.creator),
        messageRetentionDays: num(s.message_retention_days),
        topicsPolicy: typeof s.topics_policy === 'string' ? s.topics_policy : null,
        isDefault: defaults.has(Number(s.id)),
        permissions: groups.settings(s),
      }),
    );
  }
  const channelByRecipient = new Map<number, ModelChannel>();
  for (const [rid, r] of ids.recipients) {
    if (r.stream === undefined) continue;
    const channel = ids.channels.get(r.stream);
    if (channel !== undefined) channelByRecipient.set(rid, channels[channel - 1]!);
  }
  for (const sub of rows(data, 'zerver_subscription')) {
    const rid = Number(sub.recipient);
    const target = ids.recipients.get(rid);
    const userId = local(sub.user_profile);
    if (target?.huddle !== undefined) {
      ids.huddleMembers.set(target.huddle, [...(ids.huddleMembers.get(target.huddle) ?? []), userId]);
      continue;
    }
    const channel = channelByRecipient.get(rid);
    if (!channel) continue;
    channel.subscribers.push({
      userId,
      active: sub.active !== false,
      color: str(sub.color) || null,
      isMuted: sub.is_muted === true,
      pinToTop: sub.pin_to_top === true,
      desktopNotifications: bool(sub.desktop_notifications),
      audibleNotifications: bool(sub.audible_notifications),
      pushNotifications: bool(sub.push_notifications),
      emailNotifications: bool(sub.email_notifications),
      wildcardMentionsNotify: bool(sub.wildcard_mentions_notify),
    });
  }
  return channels;
}

/** Users' visibility policies of topics (zerver_usertopic) in the channels that came across. */
export function readUserTopics(data: Row, ids: ZulipIds, local: LocalUser): ModelUserTopic[] {
  const userTopics: ModelUserTopic[] = [];
  for (const t of rows(data, 'zerver_usertopic')) {
    const channel = ids.channels.get(Number(t.stream));
    if (channel === undefined) continue;
    userTopics.push({
      userId: local(t.user_profile),
      channelId: channel,
      topic: str(t.topic_name),
      visibilityPolicy: num(t.visibility_policy) ?? 1,
      lastUpdated: num(t.last_updated) ?? Date.now() / 1000,
    });
  }
  return userTopics;
}
