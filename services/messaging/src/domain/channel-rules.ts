import { invalid, organizationOwnerRequired } from '@confab/errors';
import { ROLE_OWNER } from '@confab/identity';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { isAdmin } from './permissions.js';
import { escapeHtml, firstUnprintable } from './text.js';
import type { ChannelPermission, GroupSettingValue, PermissionValue, TopicsPolicy } from './types.js';

/** Storage's answer when a channel of that name was created meanwhile (two requests created it at once). */
export class ChannelNameTaken extends Error {
  constructor(readonly channelName: string) {
    super(`a channel named ${channelName} exists`);
  }
}

/**
 * The rules of a new channel's settings: Zulip's defaults, the checks of its description, retention, topics policy
 * and group-valued permissions, and who may create it (used by creation and by channel settings).
 */

/** Defaults of a new channel's group-valued permissions (Zulip's stream_permission_group_settings). */
export function defaultPermissions(creatorId: number): Record<ChannelPermission, PermissionValue> {
  return {
    can_add_subscribers_group: 'role:nobody',
    can_administer_channel_group: { direct_members: [creatorId], direct_subgroups: [] },
    can_delete_any_message_group: 'role:nobody',
    can_delete_own_message_group: 'role:nobody',
    can_move_messages_out_of_channel_group: 'role:nobody',
    can_move_messages_within_channel_group: 'role:nobody',
    can_remove_subscribers_group: 'role:administrators',
    can_resolve_topics_group: 'role:nobody',
    can_send_message_group: 'role:everyone',
    can_subscribe_group: 'role:nobody',
  };
}

/** Settings for channels a request creates (the optional parameters of both creation endpoints). */
export interface NewChannelSettings {
  inviteOnly: boolean;
  isWebPublic: boolean;
  isDefaultStream: boolean;
  historyPublicToSubscribers: boolean | undefined;
  messageRetentionDays: string | number;
  topicsPolicy: TopicsPolicy | undefined;
  folderId: number | undefined;
  permissions: Partial<Record<ChannelPermission, GroupSettingValue>>;
}

export interface ChannelSpec {
  name: string;
  description?: string | undefined;
  color?: string | undefined;
}

export const insufficientPermission = () => invalid('Insufficient permission');

export function checkChannelDescription(description: string): void {
  const bad = firstUnprintable(description.replace(/[\n\r\t]/g, ' '));
  if (bad !== null) throw invalid(`Invalid character in channel description, at position ${bad}.`);
}

export function parseRetention(value: string | number): number | null {
  if (value === 'realm_default') return null;
  if (value === 'unlimited') return -1;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 2_147_483_647) return value;
  throw invalid(`Bad value for 'message_retention_days': ${value}`);
}

export async function checkGroupValue(domain: Domain, actor: Actor, value: GroupSettingValue): Promise<void> {
  const groupIds = typeof value === 'number' ? [value] : value.direct_subgroups;
  let groups = await domain.directory.groupsOf(actor.realm.id);
  if (groupIds.some((id) => !groups.has(id))) {
    // A group created a moment ago may be newer than this process's cached list.
    domain.directory.forgetGroups(actor.realm.id);
    groups = await domain.directory.groupsOf(actor.realm.id);
  }
  for (const id of groupIds) if (!groups.has(id)) throw invalid('Invalid user group');
  if (typeof value !== 'number') {
    const users = await domain.readModel.usersByIds(actor.realm.id, value.direct_members);
    const known = new Set(users.filter((u) => u.isActive).map((u) => u.id));
    const unknown = value.direct_members.find((id) => !known.has(id));
    if (unknown !== undefined) throw invalid(`Invalid user ID: ${unknown}`);
  }
}

/** Validates creation settings against the caller's permissions (Zulip's list_to_streams checks). */
export async function checkCanCreate(domain: Domain, actor: Actor, settings: NewChannelSettings): Promise<void> {
  const setting = settings.inviteOnly ? 'can_create_private_channel_group' : 'can_create_public_channel_group';
  if (!(await domain.permissions.realmPermission(actor.user, actor.realm, setting))) throw insufficientPermission();
  if (settings.isDefaultStream && !isAdmin(actor.user)) throw insufficientPermission();
  if (settings.inviteOnly && settings.isDefaultStream) throw invalid('A default channel cannot be private.');
  if (settings.isWebPublic) throw invalid('Web-public channels are not enabled.');
  if (settings.folderId !== undefined && !(await domain.channelFolders.byId(actor.realm.id, settings.folderId)))
    throw invalid('Invalid channel folder ID');
  if (parseRetention(settings.messageRetentionDays) !== null && actor.user.role !== ROLE_OWNER) {
    throw organizationOwnerRequired();
  }
  if (settings.topicsPolicy !== undefined && settings.topicsPolicy !== 'inherit') {
    const allowed = actor.realm.permissions.can_set_topics_policy_group ?? 'role:moderators';
    if (!(await domain.permissions.has(actor.user, actor.realm, allowed))) throw insufficientPermission();
  }
  for (const value of Object.values(settings.permissions)) await checkGroupValue(domain, actor, value);
}

export async function renderDescription(domain: Domain, actor: Actor, description: string): Promise<string> {
  if (description === '') return '';
  try {
    return (await domain.renderer.render(actor.realm, description, null)).html;
  } catch {
    return `<p>${escapeHtml(description)}</p>`;
  }
}
