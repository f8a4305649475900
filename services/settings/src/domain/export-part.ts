import type { ExportUser } from '@confab/porting';
import type { ImageFiles } from './ports.js';
import { realmPermissions } from './realms.js';
import { REALM_COLUMNS } from './realm-settings.js';
import { REALM_SETTING_DEFAULTS, realmSetting } from './realm-setting-defaults.js';
import { resolveSettings } from './settings-catalog.js';
import type { Database } from './store.js';
import type { Realm } from './types.js';

/** Zulip's RealmExport types. */
export const EXPORT_PUBLIC = 1;
export const EXPORT_FULL_WITH_CONSENT = 2;

const CHANNEL_SETTINGS: Record<string, string> = {
  new_stream_announcements_stream_id: 'new_stream_announcements_stream',
  signup_announcements_stream_id: 'signup_announcements_stream',
  zulip_update_announcements_stream_id: 'zulip_update_announcements_stream',
  moderation_request_channel_id: 'moderation_request_channel',
};

/** Every organization setting by Zulip's name, as zerver_realm holds it (group-valued ones as names or ids). */
export function exportedRealmSettings(realm: Realm): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const fields = realm as unknown as Record<string, unknown>;
  for (const [name, field] of Object.entries(REALM_COLUMNS)) if (name !== 'name' && name !== 'description') out[name] = fields[field];
  if (out.message_retention_days === null) out.message_retention_days = -1;
  for (const name of Object.keys(REALM_SETTING_DEFAULTS)) {
    const value = realmSetting(realm, name);
    const channelField = CHANNEL_SETTINGS[name];
    if (channelField) out[channelField] = typeof value === 'number' && value > 0 ? value : null;
    else out[name] = value;
  }
  out.empty_topic_display_name = realm.emptyTopicDisplayName;
  out.emails_restricted_to_domains = realmSetting(realm, 'emails_restricted_to_domains');
  for (const [name, ref] of Object.entries(realmPermissions(realm))) out[name] = ref;
  return out;
}

/**
 * The settings service's part of an organization's export in Zulip's format (docs/architecture.md, "Moving
 * organizations in and out"): the organization and its settings, its users with their personal settings, profile
 * fields, avatars, mutes, alert words and statuses, and custom emoji with their images. Private data follows
 * Zulip's export types: none in a public export; only of the members who allow it in a consent export.
 */
export async function settingsExportPart(
  ctx: { db: Database; avatars: ImageFiles; emoji: ImageFiles },
  realmId: number,
  exportType: number,
) {
  const { store } = ctx.db;
  const realm = await store.realms.byId(realmId);
  if (!realm) return null;
  const users = await store.users.inRealm(realmId);
  const stored = await store.settings.getMany(users.map((u) => u.id));
  const values = await store.profileFields.valuesOf(users.map((u) => u.id));
  const statuses = new Map((await store.statuses.inRealm(realmId)).map((s) => [s.userId, s]));
  const defaults = resolveSettings(realm.userSettingsDefaults);
  const exported: ExportUser[] = [];
  for (const user of users) {
    const own = resolveSettings(stored.get(user.id)?.values ?? {});
    const consents = own.allow_private_data_export === true;
    const privateData = exportType !== EXPORT_PUBLIC && (exportType !== EXPORT_FULL_WITH_CONSENT || consents);
    const avatar = user.avatarFile ? await ctx.avatars.read(realmId, user.avatarFile) : null;
    const status = statuses.get(user.id);
    exported.push({
      id: user.id,
      email: user.email,
      deliveryEmail: user.deliveryEmail,
      fullName: user.fullName,
      role: user.role,
      isActive: user.isActive,
      isBot: user.isBot,
      botType: user.botType,
      botOwnerId: user.botOwnerId,
      dateJoined: user.dateJoined.getTime() / 1000,
      timezone: user.timezone,
      emailAddressVisibility: user.emailAddressVisibility,
      avatarVersion: user.avatarVersion,
      avatar: avatar ? avatar.toString('base64') : null,
      // Zulip's custom_fetch_user_profile: users whose private data stays behind get the organization's defaults.
      settings: privateData ? own : defaults,
      profile: values
        .filter((v) => v.userId === user.id)
        .map((v) => ({ fieldId: v.fieldId, value: v.value, renderedValue: v.renderedValue })),
      mutedUsers: privateData
        ? (await store.mutedUsers.list(user.id)).map((m) => ({ userId: m.mutedUserId, dateMuted: m.dateMuted.getTime() / 1000 }))
        : [],
      alertWords: privateData ? await store.alertWords.list(user.id) : [],
      status:
        privateData && status
          ? {
              text: status.statusText,
              emojiName: status.emojiName,
              emojiCode: status.emojiCode,
              reactionType: status.reactionType,
              timestamp: status.timestamp.getTime() / 1000,
            }
          : null,
      allowPrivateDataExport: consents,
      longTermIdle: false,
    });
  }
  const emoji = [];
  for (const e of await store.emoji.inRealm(realmId)) {
    const data = e.fileName ? await ctx.emoji.read(realmId, e.fileName) : null;
    if (data) emoji.push({ id: e.id, name: e.name, authorId: e.authorId, deactivated: e.deactivated, fileName: e.fileName, data: data.toString('base64') });
  }
  return {
    realm: {
      id: realm.id,
      stringId: realm.stringId,
      name: realm.name,
      description: realm.description,
      dateCreated: realm.dateCreated.getTime() / 1000,
      deactivated: realm.deactivated,
      settings: exportedRealmSettings(realm),
      userSettingsDefaults: { ...defaults, ...realm.userSettingsDefaults },
    },
    users: exported,
    profileFields: (await store.profileFields.inRealm(realmId)).map((f) => ({
      id: f.id,
      name: f.name,
      hint: f.hint,
      fieldType: f.fieldType,
      fieldData: f.fieldData,
      order: f.order,
      displayInProfileSummary: f.displayInProfileSummary,
      required: f.required,
      editableByUser: f.editableByUser,
    })),
    emoji,
  };
}
