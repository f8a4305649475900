import type { ModelProfileField, ModelUser } from '../model.js';
import { newUser } from './source.js';
import { bool, localUsers, num, rows, str, type Row, type ZulipExportDir, type ZulipIds } from './zulip-tables.js';

/**
 * Users of a Zulip export (mirror dummies included; cross-realm bots, Zulip's system bots, become bots of the
 * organization) with their avatars, custom profile field values, mutes, alert words and statuses.
 */

/** Fields of zerver_userprofile that are not personal settings. */
// prettier-ignore
const USER_FIELDS = new Set([
  'id', 'email', 'delivery_email', 'full_name', 'role', 'is_active', 'is_bot', 'bot_type', 'bot_owner', 'date_joined',
  'timezone', 'avatar_source', 'avatar_version', 'avatar_hash', 'email_address_visibility', 'long_term_idle',
  'is_mirror_dummy', 'realm', 'recipient', 'last_login', 'last_reminder', 'last_active_message_id', 'tos_version',
  'is_staff', 'is_imported_stub', 'uuid', 'api_key', 'password', 'groups', 'user_permissions', 'short_name',
  'default_sending_stream', 'default_events_register_stream', 'default_all_public_streams', 'is_billing_admin',
  'onboarding_steps', 'rate_limits', 'bot_type', 'is_realm_admin', 'is_guest', 'zoom_token', 'jabber_password',
  'is_superuser', 'date_joined', 'tutorial_status', 'realm_name_in_notifications', 'can_forge_sender',
  'can_create_users', 'message_count',
]);

/** The users of realm.json, numbered into `ids.users`, and the organization's custom profile fields. */
export async function readUsers(
  data: Row,
  dir: ZulipExportDir,
  ids: ZulipIds,
  domain: string,
): Promise<{ users: ModelUser[]; profileFields: ModelProfileField[] }> {
  const users: ModelUser[] = [];
  const profiles = [...rows(data, 'zerver_userprofile'), ...rows(data, 'zerver_userprofile_mirrordummy')].sort(
    (a, b) => Number(a.id) - Number(b.id),
  );
  for (const p of profiles) ids.users.set(Number(p.id), ids.users.size + 1);
  for (const bot of rows(data, 'zerver_userprofile_crossrealm')) {
    if (ids.users.has(Number(bot.id))) continue;
    ids.users.set(Number(bot.id), ids.users.size + 1);
  }
  const avatarRecords = await dir.records('avatars');
  const avatarOf = new Map<number, string>();
  for (const r of avatarRecords) {
    const path = str(r.path);
    const user = Number(r.user_profile_id);
    // The original upload when the export has it, else the resized one.
    if (path.endsWith('.original') || !avatarOf.has(user)) avatarOf.set(user, `avatars/${path}`);
  }
  const local = localUsers(ids.users);
  for (const p of profiles) {
    const settings: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(p)) if (!USER_FIELDS.has(k)) settings[k] = v;
    const avatar = str(p.avatar_source) === 'U' ? avatarOf.get(Number(p.id)) : undefined;
    users.push(
      newUser({
        id: local(p.id),
        sourceId: `user ${String(p.id)} (${str(p.delivery_email) || str(p.email)})`,
        email: str(p.delivery_email) || str(p.email),
        fullName: str(p.full_name),
        role: (num(p.role) ?? 400) as ModelUser['role'],
        isBot: p.is_bot === true,
        botType: num(p.bot_type),
        botOwnerId: p.bot_owner === null || p.bot_owner === undefined ? null : local(p.bot_owner),
        isActive: p.is_active !== false,
        isMirrorDummy: p.is_mirror_dummy === true,
        dateJoined: num(p.date_joined) ?? Date.now() / 1000,
        timezone: str(p.timezone),
        avatarFile: avatar && dir.has(avatar) ? avatar : null,
        emailAddressVisibility: num(p.email_address_visibility),
        settings,
        longTermIdle: bool(p.long_term_idle) ?? false,
      }),
    );
  }
  for (const bot of rows(data, 'zerver_userprofile_crossrealm')) {
    const id = local(bot.id);
    if (users.some((u) => u.id === id)) continue;
    const name = str(bot.email).split('@')[0] || 'system-bot';
    const fullName = name
      .replace(/-bot$/, ' bot')
      .replace(/^./, (c) => c.toUpperCase())
      .replace(/-/g, ' ');
    users.push(
      newUser({
        id,
        sourceId: `cross-realm bot ${str(bot.email)}`,
        email: `${name}-imported@${domain}`,
        emailIsPlaceholder: true,
        fullName: `${fullName} (imported)`,
        isBot: true,
        botType: 1,
        longTermIdle: false,
      }),
    );
  }
  const profileFields = readProfileFields(data, ids);
  addPersonalData(data, users, ids);
  return { users, profileFields };
}

/** Custom profile fields, numbered into `ids.fields`. */
function readProfileFields(data: Row, ids: ZulipIds): ModelProfileField[] {
  const profileFields: ModelProfileField[] = [];
  for (const f of rows(data, 'zerver_customprofilefield')) {
    const id = profileFields.length + 1;
    ids.fields.set(Number(f.id), id);
    profileFields.push({
      id,
      name: str(f.name),
      hint: str(f.hint),
      fieldType: num(f.field_type) ?? 1,
      fieldData: str(f.field_data),
      order: num(f.order) ?? id,
      displayInProfileSummary: f.display_in_profile_summary === true,
      required: f.required === true,
      editableByUser: f.editable_by_user !== false,
    });
  }
  return profileFields;
}

/** Each user's profile field values, muted users, alert words and status. */
function addPersonalData(data: Row, users: ModelUser[], ids: ZulipIds): void {
  const local = localUsers(ids.users);
  const byUser = new Map(users.map((u) => [u.id, u]));
  for (const v of rows(data, 'zerver_customprofilefieldvalue')) {
    const field = ids.fields.get(Number(v.field));
    const user = byUser.get(local(v.user_profile));
    if (field !== undefined && user) user.profile.push({ fieldId: field, value: str(v.value) });
  }
  for (const m of rows(data, 'zerver_muteduser'))
    byUser
      .get(local(m.user_profile))
      ?.mutedUsers.push({ userId: local(m.muted_user), dateMuted: num(m.date_muted) ?? 0 });
  for (const w of rows(data, 'zerver_alertword')) byUser.get(local(w.user_profile))?.alertWords.push(str(w.word));
  for (const s of rows(data, 'zerver_userstatus')) {
    const user = byUser.get(local(s.user_profile));
    if (user)
      user.status = {
        text: str(s.status_text),
        emojiName: str(s.emoji_name),
        emojiCode: str(s.emoji_code),
        reactionType: str(s.reaction_type) || 'unicode_emoji',
        timestamp: num(s.timestamp) ?? 0,
      };
  }
}
