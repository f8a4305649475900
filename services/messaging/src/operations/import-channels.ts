import { renderMessage } from '@confab/markdown';
import { ImportError, type GroupRef, type LoaderProgress, type ModelChannel } from '@confab/porting';
import { defaultPermissions } from '../domain/channel-rules.js';
import { RECIPIENT_CHANNEL, type PermissionValue } from '../domain/types.js';
import { copyLine, isoSeconds, nextIds, type ImportDatabase } from './import-db.js';

/** Messaging's import of the channels: each with its recipient and permissions, their subscriptions, the default ones. */

/** Zulip's Stream.MAX_NAME_LENGTH: imported names are cut to it, as Zulip's import cuts them. */
const MAX_CHANNEL_NAME = 60;

/** A group reference of the model as a permission's value (a system group by name, an anonymous group by members). */
function permissionValue(ref: GroupRef, systemNames: ReadonlyMap<number, string>): PermissionValue {
  if ('system' in ref) return ref.system;
  if ('group' in ref) return systemNames.get(ref.group) ?? ref.group;
  const subgroups = [...ref.subgroups];
  for (const name of ref.systemSubgroups ?? []) {
    const id = [...systemNames].find(([, n]) => n === name)?.[0];
    if (id !== undefined) subgroups.push(id);
  }
  if (ref.members.length === 0 && subgroups.length === 1) return systemNames.get(subgroups[0]!) ?? subgroups[0]!;
  if (ref.members.length === 0 && subgroups.length === 0) return 'role:nobody';
  return { direct_members: [...ref.members].sort((a, b) => a - b), direct_subgroups: subgroups.sort((a, b) => a - b) };
}

/** The channels written: each one's recipient, and its active subscribers. */
export interface StagedChannels {
  channelRecipient: Map<number, number>;
  subscribers: Map<number, Set<number>>;
}

/**
 * Writes the channels (names cut to Zulip's length, unique regardless of case), their recipients, subscriptions and
 * the default channels; `systemNames` are the organization's system groups by id, for the permissions.
 */
export async function stageChannels(
  db: ImportDatabase,
  realm: { id: number; url: string },
  channels: readonly ModelChannel[],
  systemNames: ReadonlyMap<number, string>,
  progress: (p: LoaderProgress) => void,
): Promise<StagedChannels> {
  const realmId = realm.id;
  progress({ phase: 'channels', done: 0, total: channels.length });
  const recipientIds = await nextIds(db, 'recipients_id_seq', channels.length);
  const channelRecipient = new Map(channels.map((c, i) => [c.id, recipientIds[i]!]));
  const names = new Map<string, ModelChannel>();
  for (const [i, c] of channels.entries()) {
    const name = Array.from(c.name).slice(0, MAX_CHANNEL_NAME).join('');
    const other = names.get(name.toLowerCase());
    if (other)
      throw new ImportError(
        `the channel name '${name}' is taken by channel ${other.sourceId}`,
        `channel ${c.sourceId}`,
      );
    names.set(name.toLowerCase(), c);
    const permissions: Record<string, PermissionValue> = {
      ...defaultPermissions(c.creatorId ?? 0),
      ...(c.creatorId === null ? { can_administer_channel_group: 'role:nobody' } : {}),
    };
    for (const [setting, ref] of Object.entries(c.permissions))
      permissions[setting] = permissionValue(ref, systemNames);
    await db.query('INSERT INTO recipients (id, realm_id, type, dm_key) VALUES ($1, $2, $3, NULL)', [
      recipientIds[i],
      realmId,
      RECIPIENT_CHANNEL,
    ]);
    await db.query(
      `INSERT INTO channels (id, realm_id, recipient_id, name, name_key, description, rendered_description,
         invite_only, is_web_public, history_public_to_subscribers, message_retention_days, topics_policy, creator_id,
         date_created, is_archived, permissions)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)`,
      [
        c.id,
        realmId,
        recipientIds[i],
        name,
        name.toLowerCase(),
        c.description,
        c.description ? renderMessage(c.description, { realmUrl: realm.url }).html : '',
        c.inviteOnly,
        c.isWebPublic,
        c.historyPublicToSubscribers,
        c.messageRetentionDays,
        c.topicsPolicy ?? 'inherit',
        c.creatorId,
        isoSeconds(c.dateCreated),
        c.archived,
        JSON.stringify(permissions),
      ],
    );
  }
  const subscribers = new Map<number, Set<number>>();
  await db.copy(
    `COPY subscriptions (user_id, channel_id, active, is_muted, pin_to_top, color, desktop_notifications,
       audible_notifications, push_notifications, email_notifications, wildcard_mentions_notify) FROM STDIN`,
    channels.flatMap((c) => {
      subscribers.set(c.id, new Set(c.subscribers.filter((s) => s.active).map((s) => s.userId)));
      return c.subscribers.map((s) =>
        copyLine([
          s.userId,
          c.id,
          s.active,
          s.isMuted,
          s.pinToTop,
          s.color ?? '#c2c2c2',
          s.desktopNotifications,
          s.audibleNotifications,
          s.pushNotifications,
          s.emailNotifications,
          s.wildcardMentionsNotify,
        ]),
      );
    }),
  );
  for (const c of channels.filter((c) => c.isDefault && !c.archived))
    await db.query('INSERT INTO default_channels (channel_id, realm_id) VALUES ($1, $2)', [c.id, realmId]);
  progress({ phase: 'channels', done: channels.length, total: channels.length });
  return { channelRecipient, subscribers };
}
