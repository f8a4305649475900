import type { Channel, ChannelPermission, PermissionValue, Subscription, TopicsPolicy } from '../domain/types.js';
import { RECIPIENT_CHANNEL } from '../domain/types.js';
import { isUniqueViolation, storable, validId, type Prisma, type Tx } from './prisma.js';
import { ChannelNameTaken } from '../domain/channel-rules.js';
import type { Store } from './store.js';
import type { ChannelStore, ChannelUnit, NewChannel, NewSubscription } from '../domain/channel-store.js';

/** A `subscriptions` row as SQL returns it (the columns a subscription is built from). */
export interface SubscriptionSqlRow {
  user_id: number;
  channel_id: number;
  active: boolean;
  is_muted: boolean;
  pin_to_top: boolean;
  color: string;
  desktop_notifications: boolean | null;
  audible_notifications: boolean | null;
  push_notifications: boolean | null;
  email_notifications: boolean | null;
  wildcard_mentions_notify: boolean | null;
}

export type { NewChannel, NewSubscription } from '../domain/channel-store.js';

type ChannelRow = Prisma.ChannelGetPayload<object>;
type SubscriptionRow = Prisma.SubscriptionGetPayload<object>;

function toChannel(row: ChannelRow): Channel {
  return {
    id: row.id,
    realmId: row.realmId,
    recipientId: row.recipientId,
    name: row.name,
    description: row.description,
    renderedDescription: row.renderedDescription,
    inviteOnly: row.inviteOnly,
    isWebPublic: row.isWebPublic,
    historyPublicToSubscribers: row.historyPublicToSubscribers,
    messageRetentionDays: row.messageRetentionDays,
    topicsPolicy: row.topicsPolicy as TopicsPolicy,
    creatorId: row.creatorId,
    dateCreated: row.dateCreated,
    firstMessageId: row.firstMessageId,
    isArchived: row.isArchived,
    folderId: row.folderId,
    permissions: row.permissions as Record<ChannelPermission, PermissionValue>,
  };
}

/** The columns of `subscriptions` under the names of its Prisma model, for plain-SQL reads. */
const SUBSCRIPTION_COLUMNS = `user_id AS "userId", channel_id AS "channelId", active, is_muted AS "isMuted",
  pin_to_top AS "pinToTop", color, desktop_notifications AS "desktopNotifications",
  audible_notifications AS "audibleNotifications", push_notifications AS "pushNotifications",
  email_notifications AS "emailNotifications", wildcard_mentions_notify AS "wildcardMentionsNotify"`;

function toSubscription(row: Omit<SubscriptionRow, 'id'>): Subscription {
  return {
    userId: row.userId,
    channelId: row.channelId,
    active: row.active,
    isMuted: row.isMuted,
    pinToTop: row.pinToTop,
    color: row.color,
    desktopNotifications: row.desktopNotifications,
    audibleNotifications: row.audibleNotifications,
    pushNotifications: row.pushNotifications,
    emailNotifications: row.emailNotifications,
    wildcardMentionsNotify: row.wildcardMentionsNotify,
  };
}

/** Channels and who is subscribed to them. */
export class ChannelsRepository implements ChannelStore {
  constructor(private readonly store: Store) {}

  private get db() {
    return this.store.db;
  }

  /** This part of a unit of work (a MessagingStore part, repositories/messaging-database.ts), joined to `tx`. */
  in(tx: Tx): ChannelUnit {
    return {
      channelsByNames: (realmId, names) => this.channelsByNames(realmId, names, tx),
      createChannel: (data) => this.createChannel(tx, data),
      subscriptionsFor: (userId, channelIds) => this.subscriptionsFor(userId, channelIds, tx),
      subscribers: (channelIds) => this.subscribers(channelIds, tx),
      colorsInUse: (userIds) => this.colorsInUse(userIds, tx),
      subscriptionsOf: (userIds, channelIds) => this.subscriptionsOf(tx, userIds, channelIds),
      subscribe: (subs) => this.subscribe(tx, subs),
      unsubscribe: (pairs) => this.unsubscribe(tx, pairs),
    };
  }

  async channelById(id: number, tx?: Tx): Promise<Channel | null> {
    if (!validId(id)) return null;
    const row = await (tx ?? this.db).channel.findUnique({ where: { id } });
    return row ? toChannel(row) : null;
  }

  async channelByName(realmId: number, name: string): Promise<Channel | null> {
    if (!storable(name)) return null;
    const row = await this.db.channel.findUnique({
      where: { realmId_nameKey: { realmId, nameKey: name.toLowerCase() } },
    });
    return row ? toChannel(row) : null;
  }

  async channelsByIds(ids: readonly number[]): Promise<Channel[]> {
    const wanted = [...new Set(ids.filter(validId))];
    if (wanted.length === 0) return [];
    const rows = await this.db.channel.findMany({ where: { id: { in: wanted } }, orderBy: { id: 'asc' } });
    return rows.map(toChannel);
  }

  /** Existing channels among `names`, keyed by lower-cased name. */
  async channelsByNames(realmId: number, names: readonly string[], tx?: Tx): Promise<Map<string, Channel>> {
    const keys = [...new Set(names.filter(storable).map((n) => n.toLowerCase()))];
    const rows = keys.length
      ? await (tx ?? this.db).channel.findMany({ where: { realmId, nameKey: { in: keys } } })
      : [];
    return new Map(rows.map((r) => [r.nameKey, toChannel(r)]));
  }

  async channelsInRealm(realmId: number): Promise<Channel[]> {
    const rows = await this.db.channel.findMany({ where: { realmId }, orderBy: { id: 'asc' } });
    return rows.map(toChannel);
  }

  /** Creates a channel and its recipient; a concurrent creation of the same name fails with ChannelNameTaken. */
  async createChannel(tx: Tx, data: NewChannel): Promise<Channel> {
    const recipient = await tx.recipient.create({ data: { realmId: data.realmId, type: RECIPIENT_CHANNEL } });
    try {
      const row = await tx.channel.create({
        data: {
          ...data,
          nameKey: data.name.toLowerCase(),
          recipientId: recipient.id,
          permissions: data.permissions,
        },
      });
      return toChannel(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new ChannelNameTaken(data.name);
      throw err;
    }
  }

  async subscription(userId: number, channelId: number): Promise<Subscription | null> {
    if (!validId(channelId)) return null;
    // Read on every typing notification, reaction and channel access check: the plain pool, a prepared statement.
    const [row] = await this.store.sql.query<Omit<SubscriptionRow, 'id'>>(
      `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE user_id = $1 AND channel_id = $2`,
      [userId, channelId],
    );
    return row ? toSubscription(row) : null;
  }

  /** The user's subscriptions (active ones unless told otherwise). */
  async subscriptionsOfUser(userId: number, options: { includeInactive?: boolean } = {}): Promise<Subscription[]> {
    const rows = await this.db.subscription.findMany({
      where: { userId, ...(options.includeInactive ? {} : { active: true }) },
      orderBy: { channelId: 'asc' },
    });
    return rows.map(toSubscription);
  }

  /** The user's subscriptions to these channels (active or not), keyed by channel id. */
  async subscriptionsFor(userId: number, channelIds: readonly number[], tx?: Tx): Promise<Map<number, Subscription>> {
    const ids = [...new Set(channelIds.filter(validId))];
    if (ids.length === 0) return new Map();
    const rows = await this.store
      .reader(tx)
      .query<Omit<SubscriptionRow, 'id'>>(
        `SELECT ${SUBSCRIPTION_COLUMNS} FROM subscriptions WHERE user_id = $1 AND channel_id = ANY($2::int[])`,
        [userId, ids],
      );
    return new Map(rows.map((r) => [r.channelId, toSubscription(r)]));
  }

  /** Active subscribers who are active users, per channel. */
  async subscribers(channelIds: readonly number[], tx?: Tx): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>(channelIds.map((id) => [id, []]));
    const ids = [...new Set(channelIds.filter(validId))];
    if (ids.length === 0) return out;
    // Asked on every typing notification, reaction and channel send: the plain pool outside transactions.
    const rows = await this.store.reader(tx).query<{ channel_id: number; user_id: number }>(
      `SELECT s.channel_id, s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
        WHERE s.channel_id = ANY($1::int[]) AND s.active AND u.is_active ORDER BY s.channel_id, s.user_id`,
      [ids],
    );
    for (const row of rows) out.get(row.channel_id)?.push(row.user_id);
    return out;
  }

  async subscriberCounts(channelIds: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>(channelIds.map((id) => [id, 0]));
    const ids = [...new Set(channelIds.filter(validId))];
    if (ids.length === 0) return out;
    // A row per channel, kept by PostgreSQL's triggers as subscriptions and users change (the migration
    // channel_subscriber_counts): what a register of a client without subscriber lists needs.
    const rows = await this.store
      .reader(undefined)
      .query<{ channel_id: number; n: number }>(
        'SELECT channel_id, n FROM channel_subscriber_counts WHERE channel_id = ANY($1::int[])',
        [ids],
      );
    for (const row of rows) out.set(row.channel_id, row.n);
    return out;
  }

  async subscriberCount(channelId: number): Promise<number> {
    return (await this.subscriberCounts([channelId])).get(channelId) ?? 0;
  }

  /** Colors already used by each user's subscriptions (to pick new ones). */
  async colorsInUse(userIds: readonly number[], tx: Tx): Promise<Map<number, string[]>> {
    const out = new Map<number, string[]>();
    if (userIds.length === 0) return out;
    const rows = await tx.subscription.findMany({
      where: { userId: { in: [...userIds] } },
      select: { userId: true, color: true },
    });
    for (const row of rows) out.set(row.userId, [...(out.get(row.userId) ?? []), row.color]);
    return out;
  }

  /** Every subscription (active or not) of these users to these channels. */
  async subscriptionsOf(tx: Tx, userIds: readonly number[], channelIds: readonly number[]): Promise<Subscription[]> {
    if (userIds.length === 0 || channelIds.length === 0) return [];
    const rows = await tx.subscription.findMany({
      where: { userId: { in: [...userIds] }, channelId: { in: [...channelIds] } },
    });
    return rows.map(toSubscription);
  }

  /** Activates or creates subscriptions in one statement; returns those that were not already active. */
  async subscribe(tx: Tx, subs: readonly NewSubscription[]): Promise<Subscription[]> {
    if (subs.length === 0) return [];
    const rows = await tx.$queryRawUnsafe<SubscriptionSqlRow[]>(
      `INSERT INTO subscriptions (user_id, channel_id, color)
       SELECT * FROM unnest($1::int[], $2::int[], $3::text[])
       ON CONFLICT (user_id, channel_id) DO UPDATE SET active = true WHERE subscriptions.active = false
       RETURNING user_id, channel_id, active, is_muted, pin_to_top, color, desktop_notifications, audible_notifications,
                 push_notifications, email_notifications, wildcard_mentions_notify`,
      subs.map((s) => s.userId),
      subs.map((s) => s.channelId),
      subs.map((s) => s.color),
    );
    return rows.map((r) => ({
      userId: r.user_id,
      channelId: r.channel_id,
      active: r.active,
      isMuted: r.is_muted,
      pinToTop: r.pin_to_top,
      color: r.color,
      desktopNotifications: r.desktop_notifications,
      audibleNotifications: r.audible_notifications,
      pushNotifications: r.push_notifications,
      emailNotifications: r.email_notifications,
      wildcardMentionsNotify: r.wildcard_mentions_notify,
    }));
  }

  /** Deactivates subscriptions in one statement; returns the (user, channel) pairs that were active. */
  async unsubscribe(
    tx: Tx,
    pairs: readonly { userId: number; channelId: number }[],
  ): Promise<{ userId: number; channelId: number }[]> {
    if (pairs.length === 0) return [];
    const rows = await tx.$queryRawUnsafe<{ user_id: number; channel_id: number }[]>(
      `UPDATE subscriptions s SET active = false FROM unnest($1::int[], $2::int[]) AS p(user_id, channel_id)
        WHERE s.user_id = p.user_id AND s.channel_id = p.channel_id AND s.active
       RETURNING s.user_id, s.channel_id`,
      pairs.map((p) => p.userId),
      pairs.map((p) => p.channelId),
    );
    const removed = new Set(rows.map((r) => `${r.user_id}:${r.channel_id}`));
    return pairs.filter((p) => removed.has(`${p.userId}:${p.channelId}`));
  }

  async setFirstMessageId(tx: Tx, channelId: number, messageId: number): Promise<void> {
    await tx.channel.updateMany({
      where: { id: channelId, firstMessageId: null },
      data: { firstMessageId: messageId },
    });
  }

  /** Whether any message was sent to each channel in the last week (Zulip's is_recently_active, simplified). */
  async recentlyActive(channelIds: readonly number[]): Promise<Set<number>> {
    if (channelIds.length === 0) return new Set();
    // The latest message of each channel, found through the (recipient_id, id) index.
    const rows = await this.db.$queryRawUnsafe<{ channel_id: number }[]>(
      `SELECT c.id AS channel_id FROM channels c
         JOIN LATERAL (SELECT m.date_sent FROM messages m WHERE m.recipient_id = c.recipient_id ORDER BY m.id DESC LIMIT 1) last ON true
        WHERE c.id = ANY($1::int[]) AND last.date_sent > now() - interval '7 days'`,
      [...channelIds],
    );
    return new Set(rows.map((r) => r.channel_id));
  }
}
