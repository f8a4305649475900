import type { PeopleReader } from '../domain/people.js';
import type { contracts } from '@confab/events';
import type {
  CustomEmoji,
  CustomEmojiSet,
  Group,
  GroupSettingValue,
  Realm,
  ResolvedNoticePolicy,
  Role,
  User,
  UserSettings,
} from '../domain/types.js';
import type { PersonalFilters } from '../domain/personal-filters.js';
import { storable, validId, type Prisma, type Tx } from './prisma.js';
import type { Store } from './store.js';

type RealmRow = Prisma.RealmGetPayload<object>;
type UserRow = Prisma.UserGetPayload<object>;
type GroupRow = Prisma.UserGroupGetPayload<object>;

function toRealm(row: RealmRow): Realm {
  return {
    id: row.id,
    stringId: row.stringId,
    url: row.url,
    emptyTopicDisplayName: row.emptyTopicDisplayName,
    mandatoryTopics: row.mandatoryTopics,
    messageContentDeleteLimitSeconds: row.messageContentDeleteLimitSeconds,
    waitingPeriodThreshold: row.waitingPeriodThreshold,
    allowMessageEditing: row.allowMessageEditing,
    messageContentEditLimitSeconds: row.messageContentEditLimitSeconds,
    moveWithinChannelLimitSeconds: row.moveWithinChannelLimitSeconds,
    moveBetweenChannelsLimitSeconds: row.moveBetweenChannelsLimitSeconds,
    enableReadReceipts: row.enableReadReceipts,
    moderationRequestChannelId: row.moderationRequestChannelId,
    inlineImagePreview: row.inlineImagePreview,
    inlineUrlEmbedPreview: row.inlineUrlEmbedPreview,
    messageRetentionDays: row.messageRetentionDays,
    permissions: (row.permissions ?? {}) as Realm['permissions'],
    deactivated: row.deactivated,
  };
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    realmId: row.realmId,
    email: row.email,
    deliveryEmail: row.deliveryEmail,
    fullName: row.fullName,
    role: row.role as Role,
    isBot: row.isBot,
    botType: row.botType,
    botOwnerId: row.botOwnerId,
    isActive: row.isActive,
    dateJoined: row.dateJoined,
    receivesTypingNotifications: row.receivesTypingNotifications,
    sendStreamTypingNotifications: row.sendStreamTypingNotifications,
    sendPrivateTypingNotifications: row.sendPrivateTypingNotifications,
    automaticallyFollowTopicsPolicy: row.automaticallyFollowTopicsPolicy,
    automaticallyUnmuteTopicsInMutedStreamsPolicy: row.automaticallyUnmuteTopicsInMutedStreamsPolicy,
    automaticallyFollowTopicsWhereMentioned: row.automaticallyFollowTopicsWhereMentioned,
    enableDraftsSynchronization: row.enableDraftsSynchronization,
    sendReadReceipts: row.sendReadReceipts,
    allowPrivateDataExport: row.allowPrivateDataExport,
    resolvedTopicNoticeAutoReadPolicy: NOTICE_POLICIES.has(row.resolvedTopicNoticeAutoReadPolicy)
      ? (row.resolvedTopicNoticeAutoReadPolicy as ResolvedNoticePolicy)
      : 'except_followed',
    isSystemBot: row.isSystemBot,
    avatarUrl: row.avatarUrl,
    longTermIdle: row.longTermIdle,
  };
}

const NOTICE_POLICIES: ReadonlySet<string> = new Set(['always', 'except_followed', 'never']);

function toGroup(row: GroupRow): Group {
  return {
    id: row.id,
    realmId: row.realmId,
    name: row.name,
    isSystemGroup: row.isSystemGroup,
    deactivated: row.deactivated,
    canMentionGroup: row.canMentionGroup as GroupSettingValue,
  };
}

function realmData(r: contracts.RealmRecord) {
  return {
    stringId: r.string_id,
    url: r.url,
    emptyTopicDisplayName: r.empty_topic_display_name,
    mandatoryTopics: r.mandatory_topics,
    messageContentDeleteLimitSeconds: r.message_content_delete_limit_seconds,
    waitingPeriodThreshold: r.waiting_period_threshold,
    allowMessageEditing: r.allow_message_editing,
    messageContentEditLimitSeconds: r.message_content_edit_limit_seconds,
    moveWithinChannelLimitSeconds: r.move_messages_within_stream_limit_seconds,
    moveBetweenChannelsLimitSeconds: r.move_messages_between_streams_limit_seconds,
    enableReadReceipts: r.enable_read_receipts,
    moderationRequestChannelId: r.moderation_request_channel_id ?? null,
    inlineImagePreview: r.inline_image_preview,
    inlineUrlEmbedPreview: r.inline_url_embed_preview,
    messageRetentionDays: r.message_retention_days ?? null,
    permissions: r.permissions,
    deactivated: r.deactivated,
  };
}

function userData(u: contracts.UserRecord) {
  return {
    realmId: u.realm_id,
    email: u.email,
    emailKey: u.email.toLowerCase(),
    deliveryEmail: u.delivery_email,
    fullName: u.full_name,
    role: u.role,
    isBot: u.is_bot,
    botType: u.bot_type,
    botOwnerId: u.bot_owner_id,
    isActive: u.is_active,
    dateJoined: new Date(u.date_joined),
    isSystemBot: u.is_system_bot ?? false,
    ...(u.avatar_url === undefined ? {} : { avatarUrl: u.avatar_url }),
  };
}

function groupData(g: contracts.GroupRecord) {
  return {
    realmId: g.realm_id,
    name: g.name,
    isSystemGroup: g.is_system_group,
    deactivated: g.deactivated,
    canMentionGroup: g.can_mention_group,
  };
}

/** Maps `user_settings.changed` keys onto the settings this service keeps. */
export function pickUserSettings(settings: Record<string, unknown>): Partial<UserSettings> {
  const out: Partial<UserSettings> = {};
  const bool = (key: string) => (typeof settings[key] === 'boolean' ? settings[key] : undefined);
  const int = (key: string) => (typeof settings[key] === 'number' ? settings[key] : undefined);
  const assign = <K extends keyof UserSettings>(field: K, value: UserSettings[K] | undefined) => {
    if (value !== undefined) out[field] = value;
  };
  assign('receivesTypingNotifications', bool('receives_typing_notifications'));
  assign('sendStreamTypingNotifications', bool('send_stream_typing_notifications'));
  assign('sendPrivateTypingNotifications', bool('send_private_typing_notifications'));
  assign('automaticallyFollowTopicsPolicy', int('automatically_follow_topics_policy'));
  assign('automaticallyUnmuteTopicsInMutedStreamsPolicy', int('automatically_unmute_topics_in_muted_streams_policy'));
  assign('automaticallyFollowTopicsWhereMentioned', bool('automatically_follow_topics_where_mentioned'));
  assign('enableDraftsSynchronization', bool('enable_drafts_synchronization'));
  assign('sendReadReceipts', bool('send_read_receipts'));
  assign('allowPrivateDataExport', bool('allow_private_data_export'));
  const notice = settings.resolved_topic_notice_auto_read_policy;
  if (typeof notice === 'string' && NOTICE_POLICIES.has(notice))
    out.resolvedTopicNoticeAutoReadPolicy = notice as ResolvedNoticePolicy;
  return out;
}

/** This service's copies of organizations, users and groups (owned by the settings and groups services). */
export class ReadModelRepository implements PeopleReader {
  constructor(private readonly store: Store) {}

  private get db() {
    return this.store.db;
  }

  /**
   * Which read models hold nothing yet. Custom emoji and personal filters are tables added later than users and
   * organizations: after an upgrade they start empty next to full ones, and fill from settings once.
   */
  async isEmpty(): Promise<{ realms: boolean; users: boolean; realmEmoji: boolean; personalFilters: boolean }> {
    const [realm, user, emoji, muted, words] = await Promise.all([
      this.db.realm.findFirst(),
      this.db.user.findFirst(),
      this.db.realmEmoji.findFirst(),
      this.db.mutedUser.findFirst(),
      this.db.alertWords.findFirst(),
    ]);
    return {
      realms: realm === null,
      users: user === null,
      realmEmoji: emoji === null,
      personalFilters: muted === null && words === null,
    };
  }

  async upsertRealm(tx: Tx, record: contracts.RealmRecord): Promise<void> {
    const data = realmData(record);
    await tx.realm.upsert({ where: { id: record.realm_id }, create: { id: record.realm_id, ...data }, update: data });
  }

  /** The user as recorded. */
  async upsertUser(tx: Tx, record: contracts.UserRecord): Promise<User> {
    const data = userData(record);
    return toUser(
      await tx.user.upsert({ where: { id: record.user_id }, create: { id: record.user_id, ...data }, update: data }),
    );
  }

  /** The user's uploaded avatar URL (null: the default one); false when the user is not known yet. */
  async setUserAvatar(tx: Tx, userId: number, avatarUrl: string | null): Promise<boolean> {
    const { count } = await tx.user.updateMany({ where: { id: userId }, data: { avatarUrl } });
    return count > 0;
  }

  /** Settings may arrive before the user (events of different services are not ordered): then they wait. */
  async applyUserSettings(tx: Tx, userId: number, settings: Partial<UserSettings>): Promise<boolean> {
    if (Object.keys(settings).length === 0) return true;
    const { count } = await tx.user.updateMany({ where: { id: userId }, data: settings });
    return count > 0;
  }

  async upsertGroup(tx: Tx, record: contracts.GroupRecord): Promise<void> {
    const data = groupData(record);
    await tx.userGroup.upsert({
      where: { id: record.group_id },
      create: { id: record.group_id, ...data },
      update: data,
    });
  }

  /** Custom emoji as announced; a deactivated emoji stays deactivated whatever order the events arrive in. */
  async upsertRealmEmoji(tx: Tx, realmId: number, records: readonly contracts.RealmEmojiRecord[]): Promise<void> {
    if (records.length === 0) return;
    await tx.$executeRawUnsafe(
      `INSERT INTO realm_emoji (realm_id, emoji_id, name, source_url, deactivated)
       SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::boolean[])
       ON CONFLICT (realm_id, emoji_id) DO UPDATE SET name = EXCLUDED.name, source_url = EXCLUDED.source_url,
         deactivated = realm_emoji.deactivated OR EXCLUDED.deactivated`,
      realmId,
      records.map((r) => r.id),
      records.map((r) => r.name),
      records.map((r) => r.source_url),
      records.map((r) => r.deactivated),
    );
  }

  async realmEmoji(realmId: number): Promise<CustomEmojiSet> {
    const rows = await this.db.realmEmoji.findMany({ where: { realmId }, orderBy: { emojiId: 'asc' } });
    const byId = new Map<string, CustomEmoji>();
    const byName = new Map<string, CustomEmoji>();
    for (const row of rows) {
      const emoji = { id: row.emojiId, name: row.name, sourceUrl: row.sourceUrl, deactivated: row.deactivated };
      byId.set(emoji.id, emoji);
      if (!emoji.deactivated || !byName.has(emoji.name)) byName.set(emoji.name, emoji);
    }
    return { byName, byId };
  }

  async addMutedUser(tx: Tx, change: { userId: number; mutedUserId: number; realmId: number }): Promise<void> {
    await tx.mutedUser.upsert({
      where: { userId_mutedUserId: { userId: change.userId, mutedUserId: change.mutedUserId } },
      create: change,
      update: {},
    });
  }

  /** Marks read every message `senderId` sent that `userId` has unread; the ids, ascending. */
  async markSenderRead(tx: Tx, userId: number, senderId: number): Promise<number[]> {
    const rows = await tx.$queryRawUnsafe<{ message_id: number }[]>(
      `UPDATE user_messages um SET flags = um.flags | 1 FROM messages m
        WHERE m.id = um.message_id AND um.user_id = $1 AND m.sender_id = $2 AND um.flags & 1 = 0
        RETURNING um.message_id`,
      userId,
      senderId,
    );
    return rows.map((r) => r.message_id).sort((a, b) => a - b);
  }

  async removeMutedUser(tx: Tx, userId: number, mutedUserId: number): Promise<void> {
    await tx.mutedUser.deleteMany({ where: { userId, mutedUserId } });
  }

  async setAlertWords(tx: Tx, userId: number, realmId: number, words: readonly string[]): Promise<void> {
    const lower = [...new Set(words.map((w) => w.toLowerCase()))];
    await tx.alertWords.upsert({
      where: { userId },
      create: { userId, realmId, words: lower },
      update: { words: lower },
    });
  }

  /** Who muted whom and everyone's alert words, for one organization. */
  async personalFilters(realmId: number): Promise<PersonalFilters> {
    const [muted, words] = await Promise.all([
      this.db.mutedUser.findMany({ where: { realmId }, select: { userId: true, mutedUserId: true } }),
      this.db.alertWords.findMany({ where: { realmId }, select: { userId: true, words: true } }),
    ]);
    const mutedBy = new Map<number, number[]>();
    for (const row of muted) mutedBy.set(row.mutedUserId, [...(mutedBy.get(row.mutedUserId) ?? []), row.userId]);
    const alertWords = new Map(words.filter((w) => w.words.length > 0).map((w) => [w.userId, w.words]));
    return { mutedBy, alertWords };
  }

  async realmById(id: number): Promise<Realm | null> {
    if (!validId(id)) return null;
    const row = await this.db.realm.findUnique({ where: { id } });
    return row ? toRealm(row) : null;
  }

  async userById(id: number): Promise<User | null> {
    if (!validId(id)) return null;
    const row = await this.db.user.findUnique({ where: { id } });
    return row ? toUser(row) : null;
  }

  /** Users of one organization with these ids (unknown ids are simply absent). */
  async usersByIds(realmId: number, ids: readonly number[]): Promise<User[]> {
    const wanted = [...new Set(ids.filter(validId))];
    if (wanted.length === 0) return [];
    const rows = await this.db.user.findMany({ where: { realmId, id: { in: wanted } } });
    return rows.map(toUser);
  }

  async usersByEmails(realmId: number, emails: readonly string[]): Promise<User[]> {
    const keys = [...new Set(emails.filter(storable).map((e) => e.trim().toLowerCase()))];
    if (keys.length === 0) return [];
    const rows = await this.db.user.findMany({ where: { realmId, emailKey: { in: keys } } });
    return rows.map(toUser);
  }

  /** Users whose full name matches one of `names` case-insensitively (for @-mentions). */
  async usersByFullNames(realmId: number, names: readonly string[]): Promise<User[]> {
    names = names.filter(storable);
    if (names.length === 0) return [];
    const rows = await this.db.$queryRawUnsafe<{ id: number }[]>(
      'SELECT id FROM users WHERE realm_id = $1 AND lower(full_name) = ANY($2::text[]) ORDER BY id',
      realmId,
      names.map((n) => n.toLowerCase()),
    );
    if (rows.length === 0) return [];
    return this.usersByIds(
      realmId,
      rows.map((r) => r.id),
    );
  }

  async activeUsersInRealm(realmId: number, tx?: Tx): Promise<User[]> {
    const rows = await (tx ?? this.db).user.findMany({
      where: { realmId, isActive: true, isSystemBot: false },
      orderBy: { id: 'asc' },
    });
    return rows.map(toUser);
  }

  /** The organization's Notification Bot; null until settings' event about it has arrived. */
  async notificationBot(realmId: number): Promise<User | null> {
    const row = await this.db.user.findFirst({ where: { realmId, isSystemBot: true }, orderBy: { id: 'asc' } });
    return row ? toUser(row) : null;
  }

  async groupsInRealm(realmId: number): Promise<Group[]> {
    const rows = await this.db.userGroup.findMany({ where: { realmId }, orderBy: { id: 'asc' } });
    return rows.map(toGroup);
  }

  /** Which of `groupIds` the user belongs to, recursively. */
  async memberGroupIds(userId: number, groupIds: readonly number[]): Promise<Set<number>> {
    const wanted = [...new Set(groupIds.filter(validId))];
    if (wanted.length === 0) return new Set();
    const rows = await this.db.groupMember.findMany({
      where: { userId, groupId: { in: wanted } },
      select: { groupId: true },
    });
    return new Set(rows.map((r) => r.groupId));
  }

  /** Recursive members of the given groups. */
  async groupMembers(groupIds: readonly number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>();
    const wanted = [...new Set(groupIds.filter(validId))];
    if (wanted.length === 0) return out;
    const rows = await this.db.groupMember.findMany({ where: { groupId: { in: wanted } }, orderBy: { userId: 'asc' } });
    for (const row of rows) {
      const list = out.get(row.groupId) ?? [];
      list.push(row.userId);
      out.set(row.groupId, list);
    }
    return out;
  }
}
