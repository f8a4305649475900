import type { ChannelPatch, ChannelSettingsUnit, SubscriptionPatch } from '../domain/channel-store.js';
import type { Channel, ChannelPermission, PermissionValue, TopicsPolicy } from '../domain/types.js';
import type { Tx } from './prisma.js';
import type { SqlExecutor } from './sql.js';
import type { Store } from './store.js';

interface ChannelRow {
  id: number;
  realm_id: number;
  recipient_id: number;
  name: string;
  description: string;
  rendered_description: string;
  invite_only: boolean;
  is_web_public: boolean;
  history_public_to_subscribers: boolean;
  message_retention_days: number | null;
  topics_policy: string;
  creator_id: number | null;
  date_created: Date;
  first_message_id: number | null;
  is_archived: boolean;
  folder_id: number | null;
  permissions: Record<ChannelPermission, PermissionValue>;
}

const toChannel = (row: ChannelRow): Channel => ({
  id: row.id,
  realmId: row.realm_id,
  recipientId: row.recipient_id,
  name: row.name,
  description: row.description,
  renderedDescription: row.rendered_description,
  inviteOnly: row.invite_only,
  isWebPublic: row.is_web_public,
  historyPublicToSubscribers: row.history_public_to_subscribers,
  messageRetentionDays: row.message_retention_days,
  topicsPolicy: row.topics_policy as TopicsPolicy,
  creatorId: row.creator_id,
  dateCreated: row.date_created,
  firstMessageId: row.first_message_id,
  isArchived: row.is_archived,
  folderId: row.folder_id,
  permissions: row.permissions,
});

/** Columns each patch field writes. */
const CHANNEL_COLUMNS: Record<keyof ChannelPatch, string> = {
  name: 'name',
  description: 'description',
  renderedDescription: 'rendered_description',
  inviteOnly: 'invite_only',
  isWebPublic: 'is_web_public',
  historyPublicToSubscribers: 'history_public_to_subscribers',
  messageRetentionDays: 'message_retention_days',
  topicsPolicy: 'topics_policy',
  isArchived: 'is_archived',
  folderId: 'folder_id',
  permissions: 'permissions',
};

const SUBSCRIPTION_COLUMNS: Record<keyof SubscriptionPatch, string> = {
  color: 'color',
  isMuted: 'is_muted',
  pinToTop: 'pin_to_top',
  desktopNotifications: 'desktop_notifications',
  audibleNotifications: 'audible_notifications',
  pushNotifications: 'push_notifications',
  emailNotifications: 'email_notifications',
  wildcardMentionsNotify: 'wildcard_mentions_notify',
};

/** `SET a = $n, ...` for the fields present, their values appended to `values`. */
function assignments<P extends object>(patch: P, columns: Record<keyof P, string>, values: unknown[]): string[] {
  const sets: string[] = [];
  for (const [field, value] of Object.entries(patch) as [keyof P, unknown][]) {
    if (value === undefined) continue;
    values.push(field === 'permissions' ? JSON.stringify(value) : value);
    sets.push(`${columns[field]} = $${values.length}${field === 'permissions' ? '::jsonb' : ''}`);
  }
  return sets;
}

/** Channel and subscription settings, as a part of messaging's unit of work (plain SQL on its transaction). */
export class ChannelSettingsRepository {
  constructor(private readonly store: Store) {}

  /** This part of a unit of work (a MessagingStore part, repositories/messaging-database.ts), joined to `tx`. */
  in(tx: Tx): ChannelSettingsUnit {
    return new SqlChannelSettingsUnit(this.store.sqlOf(tx));
  }
}

class SqlChannelSettingsUnit implements ChannelSettingsUnit {
  constructor(private readonly db: SqlExecutor) {}

  async lock(channelId: number): Promise<Channel | null> {
    const rows = await this.db.query<ChannelRow>('SELECT * FROM channels WHERE id = $1 FOR UPDATE', [channelId]);
    return rows[0] ? toChannel(rows[0]) : null;
  }

  async nameTaken(realmId: number, name: string, exceptId: number): Promise<boolean> {
    const rows = await this.db.query('SELECT 1 FROM channels WHERE realm_id = $1 AND name_key = $2 AND id <> $3', [
      realmId,
      name.toLowerCase(),
      exceptId,
    ]);
    return rows.length > 0;
  }

  async update(channelId: number, patch: ChannelPatch): Promise<void> {
    const values: unknown[] = [channelId];
    const sets = assignments(patch, CHANNEL_COLUMNS, values);
    if (patch.name !== undefined) {
      values.push(patch.name.toLowerCase());
      sets.push(`name_key = $${values.length}`);
    }
    if (sets.length === 0) return;
    await this.db.query(`UPDATE channels SET ${sets.join(', ')} WHERE id = $1`, values, { prepare: false });
  }

  async subscribers(channelId: number): Promise<number[]> {
    const rows = await this.db.query<{ user_id: number }>(
      `SELECT s.user_id FROM subscriptions s JOIN users u ON u.id = s.user_id
        WHERE s.channel_id = $1 AND s.active AND u.is_active ORDER BY s.user_id`,
      [channelId],
    );
    return rows.map((r) => r.user_id);
  }

  async updateSubscription(userId: number, channelId: number, patch: SubscriptionPatch): Promise<void> {
    const values: unknown[] = [userId, channelId];
    const sets = assignments(patch, SUBSCRIPTION_COLUMNS, values);
    if (sets.length === 0) return;
    await this.db.query(`UPDATE subscriptions SET ${sets.join(', ')} WHERE user_id = $1 AND channel_id = $2`, values, {
      prepare: false,
    });
  }
}
