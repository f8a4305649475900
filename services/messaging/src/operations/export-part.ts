import type { ExportData, ExportGroupValue, ExportUser } from '@confab/porting';
import type { SubscriptionSqlRow } from '../repositories/channels.repository.js';
import type { Store } from '../repositories/store.js';
import { flagsToZulip } from './zulip-flags.js';

const EXPORT_PUBLIC = 1;
const EXPORT_FULL_WITH_CONSENT = 2;
const seconds = (d: Date | null) => (d === null ? null : d.getTime() / 1000);

type Part = Pick<
  ExportData,
  'channels' | 'subscriptions' | 'messages' | 'reactions' | 'userTopics' | 'linkifiers' | 'playgrounds'
> & { attachments: Omit<ExportData['attachments'][number], 'data'>[] };

/**
 * Messaging's part of an organization's export in Zulip's format (docs/architecture.md, "Moving organizations in
 * and out"), by Zulip's export types: a public export has the public channels' messages, and no user's private data
 * (topic visibility, subscription settings, direct messages); a consent export adds what the consenting members can
 * read, and their own data; a full export everything. Per-user rows go with every exported message (Zulip exports
 * them for every user but in consent exports, where only the consenting users' are).
 */
export async function messagingExportPart(
  store: Store,
  realmId: number,
  exportType: number,
  users: readonly Pick<ExportUser, 'id' | 'allowPrivateDataExport'>[],
): Promise<Part> {
  const sql = store.sql;
  const everyone = users.map((u) => u.id);
  const privateOf =
    exportType === EXPORT_PUBLIC
      ? new Set<number>()
      : exportType === EXPORT_FULL_WITH_CONSENT
        ? new Set(users.filter((u) => u.allowPrivateDataExport).map((u) => u.id))
        : new Set(everyone);
  const channels = await sql.query<{
    id: number;
    name: string;
    description: string;
    rendered_description: string;
    invite_only: boolean;
    history_public_to_subscribers: boolean;
    is_web_public: boolean;
    is_archived: boolean;
    date_created: Date;
    creator_id: number | null;
    message_retention_days: number | null;
    topics_policy: string;
    first_message_id: number | null;
    permissions: Record<string, ExportGroupValue>;
    is_default: boolean;
  }>(
    `SELECT c.*, EXISTS (SELECT 1 FROM default_channels d WHERE d.channel_id = c.id) AS is_default
       FROM channels c WHERE c.realm_id = $1 ORDER BY c.id`,
    [realmId],
    { prepare: false },
  );
  const subscriptions = await sql.query<SubscriptionSqlRow>(
    `SELECT s.* FROM subscriptions s JOIN channels c ON c.id = s.channel_id WHERE c.realm_id = $1 ORDER BY s.id`,
    [realmId],
    { prepare: false },
  );
  const subscribed = new Map<number, Set<number>>();
  for (const s of subscriptions)
    if (s.active) subscribed.set(s.channel_id, (subscribed.get(s.channel_id) ?? new Set()).add(s.user_id));
  const publicChannels = new Set(channels.filter((c) => !c.invite_only).map((c) => c.id));
  const readable = (channelId: number) =>
    publicChannels.has(channelId) || [...(subscribed.get(channelId) ?? [])].some((u) => privateOf.has(u));

  const rows = await sql.query<{
    id: number;
    sender_id: number;
    channel_id: number | null;
    dm_key: string | null;
    topic: string;
    content: string;
    rendered_content: string;
    date_sent: Date;
    last_edit_time: Date | null;
    edit_history: unknown[] | null;
    has_attachment: boolean;
    has_image: boolean;
    has_link: boolean;
  }>(
    `SELECT m.id, m.sender_id, m.channel_id, r.dm_key, m.topic, m.content, m.rendered_content, m.date_sent,
            m.last_edit_time, m.edit_history, m.has_attachment, m.has_image, m.has_link
       FROM messages m JOIN recipients r ON r.id = m.recipient_id WHERE m.realm_id = $1 ORDER BY m.id`,
    [realmId],
    { prepare: false },
  );
  const exported = rows.filter((m) => {
    if (exportType !== EXPORT_PUBLIC && exportType !== EXPORT_FULL_WITH_CONSENT) return true;
    if (m.channel_id !== null)
      return exportType === EXPORT_PUBLIC ? publicChannels.has(m.channel_id) : readable(m.channel_id);
    // Direct messages: in a consent export, those a consenting member took part in.
    return exportType === EXPORT_FULL_WITH_CONSENT && m.dm_key!.split(',').some((id) => privateOf.has(Number(id)));
  });
  const ids = exported.map((m) => m.id);
  const flags = new Map<number, [number, number][]>();
  for (const um of await sql.query<{ user_id: number; message_id: number; flags: number }>(
    'SELECT user_id, message_id, flags FROM user_messages WHERE message_id = ANY($1::int[])',
    [ids],
    { prepare: false },
  )) {
    if (exportType === EXPORT_FULL_WITH_CONSENT && !privateOf.has(um.user_id)) continue;
    flags.set(um.message_id, [...(flags.get(um.message_id) ?? []), [um.user_id, flagsToZulip(um.flags)]]);
  }
  const reactions = await sql.query<{
    message_id: number;
    user_id: number;
    emoji_name: string;
    emoji_code: string;
    reaction_type: string;
  }>(
    'SELECT message_id, user_id, emoji_name, emoji_code, reaction_type FROM reactions WHERE message_id = ANY($1::int[])',
    [ids],
    {
      prepare: false,
    },
  );
  const attachments = await sql.query<{
    id: number;
    owner_id: number;
    path_id: string;
    file_name: string;
    size: number;
    content_type: string;
    create_time: Date;
    message_ids: number[];
  }>(
    `SELECT a.*, array_agg(am.message_id ORDER BY am.message_id) AS message_ids
       FROM attachments a JOIN attachment_messages am ON am.attachment_id = a.id
      WHERE a.realm_id = $1 AND am.message_id = ANY($2::int[]) GROUP BY a.id ORDER BY a.id`,
    [realmId, ids],
    { prepare: false },
  );
  const topics = await sql.query<{
    user_id: number;
    channel_id: number;
    topic_name: string;
    visibility_policy: number;
    last_updated: Date;
  }>(
    `SELECT t.* FROM user_topics t JOIN channels c ON c.id = t.channel_id WHERE c.realm_id = $1 ORDER BY t.id`,
    [realmId],
    { prepare: false },
  );
  const linkifiers = await sql.query<{ id: number; pattern: string; url_template: string; order: number }>(
    'SELECT id, pattern, url_template, "order" FROM linkifiers WHERE realm_id = $1 ORDER BY "order"',
    [realmId],
    { prepare: false },
  );
  const playgrounds = await sql.query<{ id: number; name: string; pygments_language: string; url_template: string }>(
    'SELECT id, name, pygments_language, url_template FROM code_playgrounds WHERE realm_id = $1 ORDER BY id',
    [realmId],
    { prepare: false },
  );
  return {
    channels: channels.map((c) => ({
      id: c.id,
      name: c.name,
      description: c.description,
      renderedDescription: c.rendered_description,
      inviteOnly: c.invite_only,
      historyPublicToSubscribers: c.history_public_to_subscribers,
      isWebPublic: c.is_web_public,
      archived: c.is_archived,
      dateCreated: seconds(c.date_created)!,
      creatorId: c.creator_id,
      messageRetentionDays: c.message_retention_days,
      topicsPolicy: c.topics_policy,
      firstMessageId: c.first_message_id,
      permissions: c.permissions,
      isDefault: c.is_default,
    })),
    // Zulip's custom_process_subscription_in_realm_config: a subscription keeps its settings only with consent.
    subscriptions: subscriptions.map((s) => {
      const own = privateOf.has(s.user_id);
      return {
        userId: s.user_id,
        channelId: s.channel_id,
        active: s.active,
        isMuted: own && s.is_muted,
        pinToTop: own && s.pin_to_top,
        color: s.color,
        desktopNotifications: own ? s.desktop_notifications : null,
        audibleNotifications: own ? s.audible_notifications : null,
        pushNotifications: own ? s.push_notifications : null,
        emailNotifications: own ? s.email_notifications : null,
        wildcardMentionsNotify: own ? s.wildcard_mentions_notify : null,
      };
    }),
    messages: exported.map((m) => ({
      id: m.id,
      senderId: m.sender_id,
      channelId: m.channel_id,
      dmUserIds: m.dm_key ? m.dm_key.split(',').map(Number) : null,
      topic: m.topic,
      content: m.content,
      renderedContent: m.rendered_content,
      dateSent: seconds(m.date_sent)!,
      lastEditTime: seconds(m.last_edit_time),
      editHistory: m.edit_history,
      hasAttachment: m.has_attachment,
      hasImage: m.has_image,
      hasLink: m.has_link,
      rows: flags.get(m.id) ?? [],
    })),
    reactions: reactions.map((r) => ({
      messageId: r.message_id,
      userId: r.user_id,
      emojiName: r.emoji_name,
      emojiCode: r.emoji_code,
      reactionType: r.reaction_type,
    })),
    attachments: attachments.map((a) => ({
      id: a.id,
      ownerId: a.owner_id,
      pathId: a.path_id,
      fileName: a.file_name,
      size: a.size,
      contentType: a.content_type,
      createTime: seconds(a.create_time)!,
      messageIds: a.message_ids,
    })),
    userTopics: topics
      .filter((t) => privateOf.has(t.user_id))
      .map((t) => ({
        userId: t.user_id,
        channelId: t.channel_id,
        topic: t.topic_name,
        visibilityPolicy: t.visibility_policy,
        lastUpdated: seconds(t.last_updated)!,
      })),
    linkifiers: linkifiers.map((l) => ({ id: l.id, pattern: l.pattern, urlTemplate: l.url_template, order: l.order })),
    playgrounds: playgrounds.map((p) => ({
      id: p.id,
      name: p.name,
      pygmentsLanguage: p.pygments_language,
      urlTemplate: p.url_template,
    })),
  };
}
