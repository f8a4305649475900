import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ExportData, ExportGroupValue, ExportUser } from './export/data.js';
import { writeAvatars, writeEmoji, writeUploads } from './export/files.js';
import { ExportGroups } from './export/groups.js';
import { ExportRecipients } from './export/recipients.js';

const MESSAGES_PER_FILE = 1000;

async function json(dir: string, name: string, value: unknown): Promise<void> {
  const path = join(dir, name);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(value, null, 2));
}

/**
 * Writes Zulip's export format (zerver/lib/export.py's layout and table and field names) into `dir`: realm.json,
 * messages-000001.json …, attachment.json, uploads/, avatars/ and emoji/ with their records.json, and
 * migration_status.json. What a public export or one without a member's consent leaves out is left out by the
 * caller's choice of data (Zulip's rules: `exportType`).
 */
export async function writeZulipExport(
  dir: string,
  data: ExportData,
  options: { zulipVersion?: string; migrationStatus?: unknown } = {},
): Promise<{ messages: number; files: number }> {
  const realmId = data.realm.id;
  const groups = new ExportGroups(realmId, data.groups);
  const recipients = new ExportRecipients(data);

  // Messages, a thousand a file, with their per-user rows.
  const messageIds = new Set<number>();
  let file = 0;
  for (let i = 0; i < data.messages.length; i += MESSAGES_PER_FILE) {
    const chunk = data.messages.slice(i, i + MESSAGES_PER_FILE);
    const zerverMessage = chunk.map((m) => {
      messageIds.add(m.id);
      return {
        id: m.id,
        sender: m.senderId,
        recipient: recipients.of(m),
        realm: realmId,
        subject: m.topic,
        content: m.content,
        rendered_content: m.renderedContent,
        rendered_content_version: 1,
        date_sent: m.dateSent,
        last_edit_time: m.lastEditTime,
        edit_history: m.editHistory ? JSON.stringify(m.editHistory) : null,
        sending_client: 1,
        type: 1,
        has_attachment: m.hasAttachment,
        has_image: m.hasImage,
        has_link: m.hasLink,
        is_channel_message: m.channelId !== null,
      };
    });
    let rowId = i * 50 + 1;
    const zerverUsermessage = chunk.flatMap((m) =>
      m.rows.map(([userId, bits]) => ({ id: rowId++, user_profile: userId, message: m.id, flags_mask: bits })),
    );
    await json(dir, `messages-${String(++file).padStart(6, '0')}.json`, {
      zerver_message: zerverMessage,
      zerver_usermessage: zerverUsermessage,
    });
  }

  const realmRow = {
    id: realmId,
    string_id: data.realm.stringId,
    name: data.realm.name,
    description: data.realm.description,
    date_created: data.realm.dateCreated,
    deactivated: data.realm.deactivated,
    ...Object.fromEntries(
      Object.entries(data.realm.settings).map(([k, v]) => [
        k,
        /_group$/.test(k) && v !== null && typeof v !== 'boolean' ? groups.value(v as ExportGroupValue) : v,
      ]),
    ),
  };
  const avatarRecords = await writeAvatars(dir, realmId, data.users);
  const emojiRecords = await writeEmoji(dir, realmId, data.emoji);
  const uploadRecords = await writeUploads(dir, realmId, data);

  const userRow = (u: ExportUser) => ({
    id: u.id,
    realm: realmId,
    email: u.email,
    delivery_email: u.deliveryEmail,
    full_name: u.fullName,
    role: u.role,
    is_active: u.isActive,
    is_bot: u.isBot,
    bot_type: u.botType,
    bot_owner: u.botOwnerId,
    is_mirror_dummy: false,
    date_joined: u.dateJoined,
    timezone: u.timezone,
    avatar_source: u.avatar ? 'U' : 'G',
    avatar_version: u.avatarVersion,
    email_address_visibility: u.emailAddressVisibility,
    long_term_idle: u.longTermIdle,
    is_imported_stub: false,
    tos_version: null,
    ...u.settings,
  });
  await json(dir, 'realm.json', {
    zerver_realm: [realmRow],
    zerver_realmuserdefault: [{ id: 1, realm: realmId, ...data.realm.userSettingsDefaults }],
    zerver_userprofile: data.users.map(userRow),
    zerver_userprofile_mirrordummy: [],
    zerver_userprofile_crossrealm: [],
    zerver_customprofilefield: data.profileFields.map((f) => ({
      id: f.id,
      realm: realmId,
      name: f.name,
      hint: f.hint,
      field_type: f.fieldType,
      field_data: f.fieldData,
      order: f.order,
      display_in_profile_summary: f.displayInProfileSummary,
      required: f.required,
      editable_by_user: f.editableByUser,
    })),
    zerver_customprofilefieldvalue: data.users.flatMap((u) =>
      u.profile.map((p, i) => ({
        id: u.id * 1000 + i,
        user_profile: u.id,
        field: p.fieldId,
        value: p.value,
        rendered_value: p.renderedValue,
      })),
    ),
    zerver_realmemoji: data.emoji.map((e) => ({
      id: e.id,
      realm: realmId,
      author: e.authorId,
      name: e.name,
      file_name: e.fileName,
      is_animated: false,
      deactivated: e.deactivated,
    })),
    zerver_usergroup: groups.usergroups,
    zerver_namedusergroup: groups.namedgroups,
    zerver_usergroupmembership: groups.memberships,
    zerver_groupgroupmembership: groups.groupEdges,
    zerver_stream: data.channels.map((c) => ({
      id: c.id,
      realm: realmId,
      name: c.name,
      description: c.description,
      rendered_description: c.renderedDescription,
      invite_only: c.inviteOnly,
      history_public_to_subscribers: c.historyPublicToSubscribers,
      is_web_public: c.isWebPublic,
      deactivated: c.archived,
      date_created: c.dateCreated,
      creator: c.creatorId,
      message_retention_days: c.messageRetentionDays,
      topics_policy: c.topicsPolicy,
      first_message_id: c.firstMessageId,
      recipient: recipients.channel(c.id),
      ...groups.settings(c.permissions),
    })),
    zerver_defaultstream: data.channels
      .filter((c) => c.isDefault)
      .map((c, i) => ({ id: i + 1, realm: realmId, stream: c.id })),
    zerver_recipient: recipients.recipients,
    zerver_subscription: recipients.subscriptions,
    zerver_huddle: recipients.huddles,
    zerver_reaction: data.reactions
      .filter((r) => messageIds.has(r.messageId))
      .map((r, i) => ({
        id: i + 1,
        message: r.messageId,
        user_profile: r.userId,
        emoji_name: r.emojiName,
        emoji_code: r.emojiCode,
        reaction_type: r.reactionType === 'service_extra_emoji' ? 'zulip_extra_emoji' : r.reactionType,
      })),
    zerver_usertopic: data.userTopics.map((t, i) => ({
      id: i + 1,
      user_profile: t.userId,
      stream: t.channelId,
      recipient: recipients.channel(t.channelId),
      topic_name: t.topic,
      visibility_policy: t.visibilityPolicy,
      last_updated: t.lastUpdated,
    })),
    zerver_muteduser: data.users.flatMap((u) =>
      u.mutedUsers.map((m, i) => ({
        id: u.id * 1000 + i,
        user_profile: u.id,
        muted_user: m.userId,
        date_muted: m.dateMuted,
      })),
    ),
    zerver_alertword: data.users.flatMap((u) =>
      u.alertWords.map((word, i) => ({ id: u.id * 1000 + i, realm: realmId, user_profile: u.id, word })),
    ),
    zerver_userstatus: data.users
      .filter((u) => u.status)
      .map((u) => ({
        id: u.id,
        user_profile: u.id,
        status_text: u.status!.text,
        emoji_name: u.status!.emojiName,
        emoji_code: u.status!.emojiCode,
        reaction_type: u.status!.reactionType,
        timestamp: u.status!.timestamp,
        client: 1,
      })),
    zerver_realmfilter: data.linkifiers.map((l) => ({
      id: l.id,
      realm: realmId,
      pattern: l.pattern,
      url_template: l.urlTemplate,
      order: l.order,
    })),
    zerver_realmplayground: data.playgrounds.map((p) => ({
      id: p.id,
      realm: realmId,
      name: p.name,
      pygments_language: p.pygmentsLanguage,
      url_template: p.urlTemplate,
    })),
    zerver_realmdomain: [],
    zerver_realmauthenticationmethod: [],
    zerver_client: [{ id: 1, name: 'Confab export' }],
    zerver_useractivity: [],
    zerver_useractivityinterval: [],
    zerver_userpresence: [],
    zerver_realmauditlog: [],
    zerver_service: [],
    zerver_botstoragedata: [],
    zerver_botconfigdata: [],
    zerver_scheduledmessage: [],
    zerver_savedsnippet: [],
    zerver_navigationview: [],
    zerver_onboardingstep: [],
    zerver_onboardingusermessage: [],
    zerver_channelfolder: [],
    zerver_realmexport: [],
    zerver_presencesequence: [{ id: 1, realm: realmId, last_update_id: 0 }],
    zerver_externalauthid: [],
    import_source: 'zulip',
  });
  await json(dir, 'attachment.json', {
    zerver_attachment: data.attachments.map((a) => ({
      id: a.id,
      owner: a.ownerId,
      realm: realmId,
      path_id: a.pathId,
      file_name: a.fileName,
      size: a.size,
      create_time: a.createTime,
      content_type: a.contentType,
      is_realm_public: true,
      is_web_public: false,
      messages: a.messageIds.filter((id) => messageIds.has(id)),
      scheduled_messages: [],
    })),
  });
  await json(dir, 'avatars/records.json', avatarRecords);
  await json(dir, 'emoji/records.json', emojiRecords);
  await json(dir, 'uploads/records.json', uploadRecords);
  await json(dir, 'realm_icons/records.json', []);
  // Zulip's importer refuses an export whose migrations differ from its own: the operator gives the target server's
  // migration_status.json (any of its exports has one); without it, one naming this server, which Zulip refuses.
  await json(
    dir,
    'migration_status.json',
    options.migrationStatus ?? { migrations_by_app: {}, zulip_version: options.zulipVersion ?? 'Confab' },
  );
  return { messages: data.messages.length, files: file };
}
