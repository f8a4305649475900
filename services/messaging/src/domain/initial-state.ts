import { FLAG, jsonText, MENTION_BITS } from '@confab/zulip';
import { reactivateIfIdle } from './actor.js';
import { ConfabError } from '@confab/errors';
import { basicAccess } from './channel-access.js';
import { GroupValueFormatter, streamDict, subscriptionDict } from './channel-records.js';
import { listStreams, listSubscriptions, subscriberFacts } from './channel-queries.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
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
import { registerReads } from './register-reads.js';

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
async function actorOf(domain: Domain, userId: number): Promise<Actor> {
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
  base: Domain,
  userId: number,
  request: StateRequest,
): Promise<Record<string, unknown>> {
  const actor = await actorOf(base, userId);
  const want = (type: string) => request.fetchEventTypes === undefined || request.fetchEventTypes.includes(type);
  // Each store read once for the whole answer, and the independent parts read at once (not one after another).
  const domain: Domain = { ...base, channels: registerReads(base.channels, actor.realm.id, actor.user.id) };
  let topics: ReturnType<Domain['messages']['userTopicsOf']> | undefined;
  const userTopics = () => (topics ??= domain.messages.userTopicsOf(actor.user.id));
  const parts: [string, Promise<unknown>][] = [];
  const part = (key: string, value: Promise<unknown>) => parts.push([key, value]);

  if (want('subscription')) {
    const archived = request.archivedChannels === true;
    part('subscriptions', listSubscriptions(domain, actor, request.includeSubscribers, archived));
    const others = otherChannels(domain, actor, request.includeSubscribers === true, archived);
    part(
      'unsubscribed',
      others.then((o) => o.unsubscribed),
    );
    // Sent as JSON text: the events service passes the channel lists on as they are (nothing it rewrites is in
    // them), instead of parsing and writing again hundreds of KiB in a large organization.
    part(
      'never_subscribed',
      others.then((o) => asJsonText(isGuest(actor.user) ? [] : o.neverSubscribed)),
    );
  }
  if (want('stream')) {
    part(
      'streams',
      listStreamsText(domain, actor, {
        includePublic: true,
        includeWebPublic: false,
        includeSubscribed: true,
        excludeArchived: request.archivedChannels !== true,
        includeAllActive: false,
        includeAll: false,
        includeDefault: false,
      }),
    );
  }
  if (want('channel_folders'))
    part(
      'channel_folders',
      domain.channelFolders.list(actor.realm.id).then((l) => l.map(folderDict)),
    );
  if (want('realm_linkifiers'))
    part(
      'realm_linkifiers',
      request.linkifierUrlTemplate
        ? domain.linkifiers.list(actor.realm.id).then((l) => l.map(linkifierDict))
        : Promise.resolve([]),
    );
  // Zulip's legacy form, always empty since URL templates (feature level 176).
  if (want('realm_filters')) part('realm_filters', Promise.resolve([]));
  if (want('realm_playgrounds'))
    part(
      'realm_playgrounds',
      domain.playgrounds.list(actor.realm.id).then((l) => l.map(playgroundDict)),
    );
  if (want('default_streams')) part('realm_default_streams', domain.defaultChannels.ids(actor.realm.id));
  if (want('user_topic')) part('user_topics', userTopics());
  if (want('muted_topics')) part('muted_topics', mutedTopics(domain, userTopics()));
  if (want('message')) part('max_message_id', domain.messages.maxMessageId(actor.user.id));
  if (want('starred_messages')) part('starred_messages', domain.messages.flaggedIds(actor.user.id, FLAG.starred));
  if (want('recent_private_conversations')) {
    part(
      'recent_private_conversations',
      domain.messages.recentDirectConversations(actor.user.id, 1000).then((list) =>
        list.map((c) => ({
          max_message_id: c.maxMessageId,
          user_ids: c.userIds.filter((id) => id !== actor.user.id),
        })),
      ),
    );
  }
  // Keeping unreads current needs both message and flag events, so Zulip sends them only when both are wanted.
  if (want('update_message_flags') && want('message')) part('unread_msgs', unreadMessages(domain, actor));
  // Zulip sends no stored drafts to a user who turned synchronization off.
  if (want('drafts')) {
    part(
      'drafts',
      actor.user.enableDraftsSynchronization
        ? domain.drafts.list(actor.user.id).then((l) => l.map(draftDict))
        : Promise.resolve([]),
    );
  }
  if (want('scheduled_messages'))
    part(
      'scheduled_messages',
      domain.scheduledMessages.undelivered(actor.user.id).then((l) => l.map(scheduledDict)),
    );
  if (want('reminders'))
    part(
      'reminders',
      domain.scheduledMessages.undelivered(actor.user.id, REMIND).then((l) => l.map(reminderDict)),
    );
  if (want('saved_snippets'))
    part(
      'saved_snippets',
      domain.savedSnippets.list(actor.user.id).then((l) => l.map(snippetDict)),
    );

  const values = await Promise.all(parts.map(([, value]) => value));
  return Object.fromEntries(parts.map(([key], i) => [key, values[i]]));
}

const asJsonText = (value: unknown) => jsonText(JSON.stringify(value));
const listStreamsText = async (...args: Parameters<typeof listStreams>) => asJsonText(await listStreams(...args));

/** The channels the user left (unsubscribed) and those they may join but never did (never_subscribed). */
async function otherChannels(domain: Domain, actor: Actor, includeSubscribers: boolean, archived: boolean) {
  const [all, subs] = await Promise.all([
    domain.channels.channelsInRealm(actor.realm.id),
    domain.channels.subscriptionsOfUser(actor.user.id, { includeInactive: true }),
  ]);
  const byChannel = new Map(subs.map((s) => [s.channelId, s]));
  const groups = new GroupValueFormatter(domain, actor.realm);
  const { subscribers: subscribersOf, count } = await subscriberFacts(
    domain,
    all.map((c) => c.id),
    includeSubscribers,
  );
  const unsubscribed: Record<string, unknown>[] = [];
  const neverSubscribed: Record<string, unknown>[] = [];
  for (const channel of all) {
    if (channel.isArchived && !archived) continue;
    const sub = byChannel.get(channel.id);
    const subscribers = subscribersOf(channel.id);
    const facts = { subscriberCount: count(channel.id), recentlyActive: false };
    if (sub && !sub.active) {
      unsubscribed.push(
        await subscriptionDict(channel, sub, facts, groups, includeSubscribers ? subscribers : undefined),
      );
    } else if (!sub && basicAccess(actor, channel, null)) {
      // Channels never subscribed to carry the channel's fields only (and its subscribers when asked).
      const dict = await streamDict(channel, facts, groups);
      if (includeSubscribers) dict.subscribers = subscribers;
      neverSubscribed.push(dict);
    }
  }
  return { unsubscribed, neverSubscribed };
}

/** Zulip's deprecated muted_topics (zulip-terminal reads it): [channel name, topic, last updated] of muted topics. */
async function mutedTopics(
  domain: Domain,
  topics: ReturnType<Domain['messages']['userTopicsOf']>,
): Promise<[string, string, number][]> {
  const muted = (await topics).filter((t) => t.visibility_policy === VISIBILITY_MUTED);
  const channels = new Map(
    (await domain.directory.channelsByIds([...new Set(muted.map((t) => t.stream_id))])).map((c) => [c.id, c]),
  );
  return muted
    .filter((t) => channels.has(t.stream_id))
    .map((t) => [channels.get(t.stream_id)!.name, t.topic_name, t.last_updated]);
}

/** Zulip's unread_msgs: unread messages grouped by topic, direct conversation and group conversation. */
async function unreadMessages(domain: Domain, actor: Actor) {
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
