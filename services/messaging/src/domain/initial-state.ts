import { FLAG, MENTION_BITS } from '@confab/zulip';
import { reactivateIfIdle } from './actor.js';
import { ConfabError } from '@confab/errors';
import { basicAccess } from './channel-access.js';
import { GroupValueFormatter, streamDict, subscriptionDict } from './channel-records.js';
import { listStreams, listSubscriptions } from './channel-queries.js';
import type { Actor, Domain } from './context.js';
import { isGuest } from './permissions.js';
import { draftDict } from './drafts.js';
import { snippetDict } from './saved-snippets.js';
import { folderDict } from './channel-folders.js';
import { linkifierDict } from './linkifiers.js';
import { playgroundDict } from './playgrounds.js';
import { scheduledDict } from './scheduled-messages.js';
import { reminderDict } from './reminders.js';
import { REMIND } from './scheduled-store.js';
import { VISIBILITY_MUTED } from './types.js';
import type { ChannelQueriesDeps } from './channel-queries.js';

/** What this file's functions use of the domain: its own ports and those of the areas it calls. */
export type InitialStateDeps = ChannelQueriesDeps &
  Pick<
    Domain,
    'channelFolders' | 'drafts' | 'linkifiers' | 'messages' | 'playgrounds' | 'savedSnippets' | 'scheduledMessages'
  >;

/** Zulip's MAX_UNREAD_MESSAGES: older unread messages are left out (old_unreads_missing). */
const MAX_UNREAD_MESSAGES = 50_000;
export interface StateRequest {
  /** Zulip's fetch_event_types; undefined means everything. */
  fetchEventTypes: string[] | undefined;
  includeSubscribers: boolean;
  /** The client's archived_channels capability: archived channels are listed only to clients that declare it. */
  archivedChannels?: boolean;
  /** The client takes linkifiers with URL templates (feature level 176); without it, realm_linkifiers is empty. */
  linkifierUrlTemplate?: boolean;
}

/** The caller of the internal state protocol is the events service, asking on a user's behalf. */
async function actorOf(domain: InitialStateDeps, userId: number): Promise<Actor> {
  const found = await domain.directory.user(userId);
  const user = found && (await reactivateIfIdle(domain, found, () => domain.directory.user(userId)));
  const realm = user ? await domain.directory.realm(user.realmId) : null;
  if (!user || !realm) throw new ConfabError('No such user', { status: 404 });
  return { user, realm, requestId: 'initial-state' };
}

/**
 * The messaging part of a /register answer (the events service's initial-state protocol): subscriptions and
 * channels, topic policies, unread and starred messages, recent direct conversations and max_message_id, each only
 * when `fetch_event_types` asks for it, named as in Zulip's register response.
 */
export async function initialState(
  domain: InitialStateDeps,
  userId: number,
  request: StateRequest,
): Promise<Record<string, unknown>> {
  const actor = await actorOf(domain, userId);
  const want = (type: string) => request.fetchEventTypes === undefined || request.fetchEventTypes.includes(type);
  const state: Record<string, unknown> = {};

  if (want('subscription')) {
    const archived = request.archivedChannels === true;
    state.subscriptions = await listSubscriptions(domain, actor, request.includeSubscribers, archived);
    const all = await domain.channels.channelsInRealm(actor.realm.id);
    const subs = await domain.channels.subscriptionsOfUser(actor.user.id, { includeInactive: true });
    const byChannel = new Map(subs.map((s) => [s.channelId, s]));
    const groups = new GroupValueFormatter(domain, actor.realm);
    const counts = await domain.channels.subscribers(all.map((c) => c.id));
    const unsubscribed: Record<string, unknown>[] = [];
    const neverSubscribed: Record<string, unknown>[] = [];
    for (const channel of all) {
      if (channel.isArchived && !archived) continue;
      const sub = byChannel.get(channel.id);
      const subscribers = counts.get(channel.id) ?? [];
      const facts = { subscriberCount: subscribers.length, recentlyActive: false };
      if (sub && !sub.active) {
        unsubscribed.push(
          await subscriptionDict(channel, sub, facts, groups, request.includeSubscribers ? subscribers : undefined),
        );
      } else if (!sub && basicAccess(actor, channel, null)) {
        // Channels never subscribed to carry the channel's fields only (and its subscribers when asked).
        const dict = await streamDict(channel, facts, groups);
        if (request.includeSubscribers) dict.subscribers = subscribers;
        neverSubscribed.push(dict);
      }
    }
    state.unsubscribed = unsubscribed;
    state.never_subscribed = isGuest(actor.user) ? [] : neverSubscribed;
  }
  if (want('stream')) {
    state.streams = await listStreams(domain, actor, {
      includePublic: true,
      includeWebPublic: false,
      includeSubscribed: true,
      excludeArchived: request.archivedChannels !== true,
      includeAllActive: false,
      includeAll: false,
      includeDefault: false,
    });
  }
  if (want('channel_folders'))
    state.channel_folders = (await domain.channelFolders.list(actor.realm.id)).map(folderDict);
  if (want('realm_linkifiers'))
    state.realm_linkifiers = request.linkifierUrlTemplate
      ? (await domain.linkifiers.list(actor.realm.id)).map(linkifierDict)
      : [];
  // Zulip's legacy form, always empty since URL templates (feature level 176).
  if (want('realm_filters')) state.realm_filters = [];
  if (want('realm_playgrounds'))
    state.realm_playgrounds = (await domain.playgrounds.list(actor.realm.id)).map(playgroundDict);
  if (want('default_streams')) state.realm_default_streams = await domain.defaultChannels.ids(actor.realm.id);
  if (want('user_topic')) state.user_topics = await domain.messages.userTopicsOf(actor.user.id);
  if (want('muted_topics')) {
    // Zulip's deprecated form (zulip-terminal reads it): [channel name, topic, last updated] for muted topics.
    const muted = (await domain.messages.userTopicsOf(actor.user.id)).filter(
      (t) => t.visibility_policy === VISIBILITY_MUTED,
    );
    const channels = new Map(
      (await domain.directory.channelsByIds([...new Set(muted.map((t) => t.stream_id))])).map((c) => [c.id, c]),
    );
    state.muted_topics = muted
      .filter((t) => channels.has(t.stream_id))
      .map((t) => [channels.get(t.stream_id)!.name, t.topic_name, t.last_updated]);
  }
  if (want('message')) state.max_message_id = await domain.messages.maxMessageId(actor.user.id);
  if (want('starred_messages')) state.starred_messages = await domain.messages.flaggedIds(actor.user.id, FLAG.starred);
  if (want('recent_private_conversations')) {
    state.recent_private_conversations = (await domain.messages.recentDirectConversations(actor.user.id, 1000)).map(
      (c) => ({
        max_message_id: c.maxMessageId,
        user_ids: c.userIds.filter((id) => id !== actor.user.id),
      }),
    );
  }
  // Keeping unreads current needs both message and flag events, so Zulip sends them only when both are wanted.
  if (want('update_message_flags') && want('message')) {
    state.unread_msgs = await unreadMessages(domain, actor);
  }
  // Zulip sends no stored drafts to a user who turned synchronization off.
  if (want('drafts')) {
    state.drafts = actor.user.enableDraftsSynchronization
      ? (await domain.drafts.list(actor.user.id)).map(draftDict)
      : [];
  }
  if (want('scheduled_messages')) {
    state.scheduled_messages = (await domain.scheduledMessages.undelivered(actor.user.id)).map(scheduledDict);
  }
  if (want('reminders'))
    state.reminders = (await domain.scheduledMessages.undelivered(actor.user.id, REMIND)).map(reminderDict);
  if (want('saved_snippets')) {
    state.saved_snippets = (await domain.savedSnippets.list(actor.user.id)).map(snippetDict);
  }
  return state;
}

/** Zulip's unread_msgs: unread messages grouped by topic, direct conversation and group conversation. */
async function unreadMessages(domain: InitialStateDeps, actor: Actor) {
  const rows = await domain.messages.unreadRows(actor.user.id, MAX_UNREAD_MESSAGES + 1);
  const missing = rows.length > MAX_UNREAD_MESSAGES;
  const kept = rows.slice(0, MAX_UNREAD_MESSAGES).sort((a, b) => a.messageId - b.messageId);
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[] }>();
  const pms = new Map<number, number[]>();
  const huddles = new Map<string, number[]>();
  const mentions: number[] = [];
  for (const row of kept) {
    if (row.flags & MENTION_BITS) mentions.push(row.messageId);
    if (row.channelId !== null) {
      const key = `${row.channelId}:${row.topic.toLowerCase()}`;
      const entry = streams.get(key) ?? { stream_id: row.channelId, topic: row.topic, unread_message_ids: [] };
      entry.unread_message_ids.push(row.messageId);
      streams.set(key, entry);
      continue;
    }
    const participants = row.dmUserIds ?? [];
    if (participants.length <= 2) {
      const other = participants.find((id) => id !== actor.user.id) ?? actor.user.id;
      pms.set(other, [...(pms.get(other) ?? []), row.messageId]);
    } else {
      const key = participants.join(',');
      huddles.set(key, [...(huddles.get(key) ?? []), row.messageId]);
    }
  }
  return {
    count: kept.length,
    pms: [...pms].map(([other, ids]) => ({ other_user_id: other, sender_id: other, unread_message_ids: ids })),
    streams: [...streams.values()],
    huddles: [...huddles].map(([key, ids]) => ({ user_ids_string: key, unread_message_ids: ids })),
    mentions,
    old_unreads_missing: missing,
  };
}
