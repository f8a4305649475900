import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import { ConfabError, invalid } from '@confab/errors';
import { ROLE_ADMINISTRATOR, ROLE_OWNER, type UserIdentity } from '@confab/identity';
import { adminRequired } from './accounts.js';
import type { ChannelDirectory, GroupDirectory } from './ports.js';
import { realmPermissions, realmRecord, realmUrl, renderRealmDescription } from './realms.js';
import type { Database } from './store.js';
import { realmSetting, VIDEO_CHAT_PROVIDERS } from './realm-setting-defaults.js';
import type { GroupRef, Realm, RealmPatch } from './types.js';
import { isAvailableLanguage } from './validators.js';

/**
 * Zulip's organization settings (zerver/models/realms.py property_types and update_realm in zerver/views/realm.py):
 * those stored in columns of their own, because other services act on them (through `realm.updated`), and the
 * rest, which only clients read, kept by name in the realm's `settings` map with Zulip's defaults here.
 */

export const ownerRequired = () => new ConfabError('Must be an organization owner', { code: 'UNAUTHORIZED_PRINCIPAL' });

export const MAX_REALM_NAME_LENGTH = 40;
export const MAX_REALM_DESCRIPTION_LENGTH = 1000;

/** Realm.GIPHY_RATING_OPTIONS's ids (disabled, Y, G, PG, PG-13, R). */
const GIPHY_RATINGS = [0, 1, 2, 3, 4, 5];
/** OrgTypeEnum's values. */
const ORG_TYPES = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000];

/** A group-valued setting as clients send it: `{new, old?}`, each a group id or an anonymous group. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };
export interface GroupSettingChange {
  new: GroupSettingValue;
  old?: GroupSettingValue | undefined;
}

/** What PATCH /realm asks for; undefined leaves a setting as it is. */
export interface RealmSettingsRequest {
  /** Column-backed and stored-by-name scalar settings, by Zulip's name; time limits may be 'unlimited'. */
  values: Record<string, unknown>;
  groups: Record<string, GroupSettingChange>;
}

/** Settings only owners may change (update_realm's OrganizationOwnerRequiredError cases). */
const OWNER_ONLY = new Set([
  'invite_required',
  'create_multiuse_invite_group',
  'can_create_groups',
  'can_invite_users_group',
  'can_manage_all_groups',
  'emails_restricted_to_domains',
  'disallow_disposable_email_addresses',
  'waiting_period_threshold',
  'message_retention_days',
  'string_id',
]);

/** Time limits: a positive number of seconds, or 'unlimited' (Zulip's MESSAGE_TIME_LIMIT_SETTING_SPECIAL_VALUES_MAP). */
const TIME_LIMITS: Record<string, keyof RealmPatch> = {
  message_content_delete_limit_seconds: 'messageContentDeleteLimitSeconds',
  message_content_edit_limit_seconds: 'messageContentEditLimitSeconds',
  move_messages_within_stream_limit_seconds: 'moveMessagesWithinStreamLimitSeconds',
  move_messages_between_streams_limit_seconds: 'moveMessagesBetweenStreamsLimitSeconds',
};

export const REALM_COLUMNS: Record<string, keyof RealmPatch> = {
  name: 'name',
  description: 'description',
  name_changes_disabled: 'nameChangesDisabled',
  email_changes_disabled: 'emailChangesDisabled',
  waiting_period_threshold: 'waitingPeriodThreshold',
  allow_message_editing: 'allowMessageEditing',
  enable_read_receipts: 'enableReadReceipts',
  mandatory_topics: 'mandatoryTopics',
  message_retention_days: 'messageRetentionDays',
  ...TIME_LIMITS,
};

/** Settings whose events have Zulip's historical `update_dict` form. */
const UPDATE_DICT = new Set(['allow_message_editing', 'message_content_edit_limit_seconds']);

const CHANNEL_SETTINGS = [
  'moderation_request_channel_id',
  'new_stream_announcements_stream_id',
  'signup_announcements_stream_id',
  'zulip_update_announcements_stream_id',
];

/** Zulip's per-setting restrictions of group values (REALM_PERMISSION_GROUP_SETTINGS, simplified). */
const NO_EVERYONE = new Set([
  'can_add_custom_emoji_group',
  'can_create_bots_group',
  'can_create_write_only_bots_group',
  'can_create_groups',
  'can_create_private_channel_group',
  'can_create_public_channel_group',
  'can_create_web_public_channel_group',
  'can_delete_any_message_group',
  'can_invite_users_group',
  'can_manage_all_groups',
  'can_manage_billing_group',
  'can_move_messages_between_channels_group',
  'can_set_delete_message_policy_group',
  'create_multiuse_invite_group',
]);
const ONLY_EVERYONE_OR_MEMBERS = new Set(['can_access_all_users_group']);

/** Column-backed value of a setting, as clients read it. */
function columnValue(realm: Realm, name: string): unknown {
  switch (name) {
    case 'name':
      return realm.name;
    case 'description':
      return realm.description;
    case 'name_changes_disabled':
      return realm.nameChangesDisabled;
    case 'email_changes_disabled':
      return realm.emailChangesDisabled;
    case 'waiting_period_threshold':
      return realm.waitingPeriodThreshold;
    case 'allow_message_editing':
      return realm.allowMessageEditing;
    case 'enable_read_receipts':
      return realm.enableReadReceipts;
    case 'mandatory_topics':
      return realm.mandatoryTopics;
    case 'message_retention_days':
      return realm.messageRetentionDays ?? -1;
    case 'message_content_delete_limit_seconds':
      return realm.messageContentDeleteLimitSeconds;
    case 'message_content_edit_limit_seconds':
      return realm.messageContentEditLimitSeconds;
    case 'move_messages_within_stream_limit_seconds':
      return realm.moveMessagesWithinStreamLimitSeconds;
    case 'move_messages_between_streams_limit_seconds':
      return realm.moveMessagesBetweenStreamsLimitSeconds;
    default:
      return undefined;
  }
}

const badValue = (name: string, value: unknown) =>
  invalid(`Bad value for '${name}': ${typeof value === 'string' ? value : JSON.stringify(value)}`);

/** A time limit: 'unlimited' → null, or a positive integer. */
function parseTimeLimit(name: string, value: unknown): number | null {
  if (value === 'unlimited') return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) throw badValue(name, value);
  return value;
}

/** message_retention_days: 'unlimited' → null (kept forever), or a positive number of days. */
function parseRetention(value: unknown): number | null {
  if (value === 'unlimited' || value === -1) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0)
    throw badValue('message_retention_days', value);
  return value;
}

export interface RealmSettingsContext {
  db: Database;
  groups: GroupDirectory;
  channels: ChannelDirectory;
  externalUrl: string;
}

/** A group value as stored: a system group by name, or a user-defined group's id. */
async function resolveGroupValue(
  ctx: RealmSettingsContext,
  realmId: number,
  setting: string,
  value: GroupSettingValue,
  systemGroups: ReadonlyMap<string, number>,
): Promise<GroupRef> {
  let groupId: number;
  if (typeof value === 'number') groupId = value;
  else if (value.direct_members.length === 0 && value.direct_subgroups.length === 0) return 'role:nobody';
  else if (value.direct_members.length === 0 && value.direct_subgroups.length === 1)
    groupId = value.direct_subgroups[0]!;
  else throw invalid(`'${setting}' setting cannot be set to an anonymous group with members in this server.`);
  const systemName = [...systemGroups].find(([, id]) => id === groupId)?.[0];
  if (systemName === undefined) {
    // The groups service answers "Invalid user group ID: N" for a group that is not in this organization.
    await ctx.groups.activeMembers(realmId, [groupId]);
    return groupId;
  }
  const refused = (name: string) => invalid(`'${setting}' setting cannot be set to '${name}' group.`);
  if (systemName === 'role:internet') throw refused(systemName);
  if (systemName === 'role:everyone' && NO_EVERYONE.has(setting)) throw refused(systemName);
  if (ONLY_EVERYONE_OR_MEMBERS.has(setting) && systemName !== 'role:everyone' && systemName !== 'role:members')
    throw refused(systemName);
  return systemName;
}

/** A stored group value as clients read it (a group id; an anonymous group until the system groups are known). */
export function groupValueForApi(ref: GroupRef, systemGroups: ReadonlyMap<string, number>): GroupSettingValue {
  if (typeof ref === 'number') return ref;
  return systemGroups.get(ref) ?? { direct_members: [], direct_subgroups: [] };
}

function sameGroupValue(a: GroupSettingValue, b: GroupSettingValue): boolean {
  if (typeof a === 'number' || typeof b === 'number') return a === b;
  const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y).join(',');
  return (
    sorted(a.direct_members) === sorted(b.direct_members) && sorted(a.direct_subgroups) === sorted(b.direct_subgroups)
  );
}

/** Checks the stored-by-name scalar values (Zulip's extra checks beyond the types). */
function checkScalar(name: string, value: unknown): void {
  switch (name) {
    case 'default_language':
      if (typeof value !== 'string' || !isAvailableLanguage(value))
        throw invalid(`Invalid language '${String(value)}'`);
      return;
    case 'video_chat_provider':
      if (!Object.values(VIDEO_CHAT_PROVIDERS).some((p) => p.id === value))
        throw invalid(`Invalid video_chat_provider ${String(value)}`);
      return;
    case 'giphy_rating':
      if (!GIPHY_RATINGS.includes(value as number)) throw invalid(`Invalid giphy_rating ${String(value)}`);
      return;
    case 'org_type':
      if (!ORG_TYPES.includes(value as number)) throw invalid('Invalid org_type');
      return;
    case 'digest_weekday':
      if (typeof value !== 'number' || value < 0 || value > 6) throw invalid('Invalid digest_weekday');
      return;
    case 'message_edit_history_visibility_policy':
      if (!['all', 'moves', 'none'].includes(value as string))
        throw invalid('Invalid message_edit_history_visibility_policy');
      return;
  }
}

export interface RealmSettingsResult {
  /** What changed, as PATCH /realm answers it. */
  data: Record<string, unknown>;
}

/**
 * PATCH /realm: Zulip's update_realm. Administrators only; some settings only owners. Every check runs before
 * anything is written, so a request succeeds or fails whole; the change and its events commit together:
 * `realm.updated` for the services that act on settings, `realm_settings.changed` for clients (Zulip's `realm`
 * update and update_dict events).
 */
export async function updateRealmSettings(
  ctx: RealmSettingsContext,
  actor: UserIdentity,
  request: RealmSettingsRequest,
  requestId: string,
): Promise<RealmSettingsResult> {
  if (actor.role > ROLE_ADMINISTRATOR) throw adminRequired();
  const isOwner = actor.role === ROLE_OWNER;
  for (const name of [...Object.keys(request.values), ...Object.keys(request.groups)]) {
    if (OWNER_ONLY.has(name) && !isOwner) throw ownerRequired();
  }
  const values = { ...request.values };
  if ('string_id' in values) throw invalid('Must be a demo organization.');
  // Deprecated aliases Zulip's clients may still send.
  if ('allow_edit_history' in values && !('message_edit_history_visibility_policy' in values)) {
    values.message_edit_history_visibility_policy = values.allow_edit_history ? 'all' : 'none';
  }
  delete values.allow_edit_history;
  if ('topics_policy' in values) {
    values.mandatory_topics = values.topics_policy === 'disable_empty_topic';
    delete values.topics_policy;
  }
  for (const [name, value] of Object.entries(values)) checkScalar(name, value);
  for (const name of CHANNEL_SETTINGS) {
    const value = values[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid(`${name} is not an integer`);
    if (value >= 0 && !(await ctx.channels.channelExists(actor.realmId, value))) throw invalid('Invalid channel ID');
    if (value < 0) values[name] = -1;
  }
  // Parse the special values before the transaction, so a bad one refuses the whole request.
  const parsed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(values)) {
    if (name in TIME_LIMITS) parsed[name] = parseTimeLimit(name, value);
    else if (name === 'message_retention_days') parsed[name] = parseRetention(value);
    else parsed[name] = value;
  }
  const systemGroups = await ctx.db.store.systemGroups.ofRealm(actor.realmId);
  const groupValues: Record<string, { ref: GroupRef; api: GroupSettingValue; old?: GroupSettingValue }> = {};
  for (const [name, change] of Object.entries(request.groups)) {
    const ref = await resolveGroupValue(ctx, actor.realmId, name, change.new, systemGroups);
    groupValues[name] = { ref, api: change.new, ...(change.old === undefined ? {} : { old: change.old }) };
  }

  return ctx.db.write(async (store) => {
    const realm = await store.realms.lock(actor.realmId);
    if (!realm) throw invalid('No such organization');
    const patch: RealmPatch = {};
    const settings = { ...realm.settings };
    const data: Record<string, unknown> = {};
    const changes: contracts.RealmClientChange[] = [];
    const note = (name: string, value: unknown) => {
      data[name] = value;
      if (name === 'description' && typeof value === 'string') {
        // Zulip's do_set_realm_property: the Markdown and its rendering together.
        const rendered = renderRealmDescription(value, realmUrl(realm, ctx.externalUrl));
        changes.push({
          type: 'realm',
          op: 'update_dict',
          property: 'default',
          data: { description: value, rendered_description: rendered },
        });
      } else if (UPDATE_DICT.has(name))
        changes.push({ type: 'realm', op: 'update_dict', property: 'default', data: { [name]: value } });
      else changes.push({ type: 'realm', op: 'update', property: name, value });
    };
    for (const [name, value] of Object.entries(parsed)) {
      const column = REALM_COLUMNS[name];
      if (column) {
        const current = columnValue(realm, name);
        const comparable = name === 'message_retention_days' ? (value ?? -1) : value;
        if (current === comparable) continue;
        (patch as Record<string, unknown>)[column] = value;
        note(name, comparable);
        if (name === 'mandatory_topics') {
          const policy = value ? 'disable_empty_topic' : 'allow_empty_topic';
          changes.push({ type: 'realm', op: 'update', property: 'topics_policy', value: policy });
        }
        continue;
      }
      if (realmSetting(realm, name) === value) continue;
      settings[name] = value;
      note(name, value);
      if (name === 'message_edit_history_visibility_policy') {
        changes.push({ type: 'realm', op: 'update', property: 'allow_edit_history', value: value !== 'none' });
      }
    }
    const permissions = realmPermissions(realm);
    const newPermissions: Record<string, GroupRef> = {};
    for (const [name, { ref, api, old }] of Object.entries(groupValues)) {
      const current = permissions[name];
      const currentApi = current === undefined ? undefined : groupValueForApi(current, systemGroups);
      if (old !== undefined && (currentApi === undefined || !sameGroupValue(old, currentApi))) {
        throw new ConfabError("'old' value does not match the expected value.", { code: 'EXPECTATION_MISMATCH' });
      }
      if (current === ref) continue;
      newPermissions[name] = ref;
      data[name] = api;
      changes.push({ type: 'realm', op: 'update_dict', property: 'default', data: { [name]: api } });
    }
    if (Object.keys(newPermissions).length > 0) patch.permissions = { ...realm.permissions, ...newPermissions };
    if (Object.keys(settings).some((k) => settings[k] !== realm.settings[k])) patch.settings = settings;
    if (changes.length === 0) return { result: { data }, events: [] };
    const updated = await store.realms.update(realm.id, patch);
    const meta = { realmId: realm.id, requestId };
    const events: OutboxRecord[] = [
      outboxRecord(contracts.realmUpdated, { realm: realmRecord(updated, ctx.externalUrl) }, meta),
      outboxRecord(contracts.realmSettingsChanged, { realm_id: realm.id, changes }, meta),
    ];
    return { result: { data }, events };
  });
}
