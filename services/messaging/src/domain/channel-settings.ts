import { ConfabError, invalid, organizationOwnerRequired } from '@confab/errors';
import { ROLE_OWNER } from '@confab/identity';
import { contracts, outboxRecord } from '@confab/events';
import { STREAM_POST_POLICY_ADMINS } from '@confab/zulip';
import { basicAccess } from './channel-access.js';
import { channelRecord, GroupValueFormatter } from './channel-records.js';
import { checkChannelDescription, checkGroupValue, renderDescription } from './channel-rules.js';
import { audienceOf } from './channels.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import type { ChannelPatch, ChannelSettingsUnit } from './channel-store.js';
import { isAdmin, isGuest } from './permissions.js';
import { checkChannelName, MAX_CHANNEL_DESCRIPTION_LENGTH } from './text.js';
import type { Channel, ChannelPermission, GroupSettingValue, TopicsPolicy } from './types.js';
import { checkCanManageDefaults, setDefaultChannel } from './default-channels.js';

/** PATCH /streams/{stream_id}'s parameters; a group setting comes as Zulip's `{new, old}`. */
export interface ChannelUpdate {
  newName?: string;
  description?: string;
  isPrivate?: boolean;
  isWebPublic?: boolean;
  historyPublicToSubscribers?: boolean;
  messageRetentionDays?: string | number;
  topicsPolicy?: TopicsPolicy;
  isArchived?: boolean;
  isDefaultStream?: boolean;
  /** Null takes the channel out of its folder. */
  folderId?: number | null;
  permissions: Partial<Record<ChannelPermission, { new: GroupSettingValue; old?: GroupSettingValue }>>;
}

interface Change {
  property: string;
  value: unknown;
  rendered_description?: string;
  history_public_to_subscribers?: boolean;
  is_web_public?: boolean;
}

const sameGroupValue = (a: GroupSettingValue, b: GroupSettingValue) => {
  const norm = (v: GroupSettingValue) =>
    typeof v === 'number'
      ? v
      : JSON.stringify([[...v.direct_members].sort((x, y) => x - y), [...v.direct_subgroups].sort((x, y) => x - y)]);
  return norm(a) === norm(b);
};

/** The channel as an administrator reaches it (Zulip's access_stream_for_delete_or_update). */
async function administeredChannel(domain: Domain, actor: Actor, channelId: number): Promise<Channel> {
  const channel = await domain.directory.channel(channelId);
  if (!channel || channel.realmId !== actor.realm.id) throw invalid('Invalid channel ID');
  if (isAdmin(actor.user)) return channel;
  const sub = await domain.channels.subscription(actor.user.id, channel.id);
  if (!basicAccess(actor, channel, sub?.active ? sub : null)) throw invalid('Invalid channel ID');
  if (!(await domain.permissions.has(actor.user, actor.realm, channel.permissions.can_administer_channel_group)))
    throw invalid('You do not have permission to administer this channel.');
  return channel;
}

function parseRetention(value: string | number): number | null {
  if (value === 'realm_default') return null;
  if (value === 'unlimited') return -1;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0 && value <= 2_147_483_647) return value;
  throw invalid(`Bad value for 'message_retention_days': ${value}`);
}

/** Works out the patch and the events' changes from the request, checking each part as Zulip does. */
async function plan(
  domain: Domain,
  actor: Actor,
  channel: Channel,
  input: ChannelUpdate,
): Promise<{ patch: ChannelPatch; changes: Change[] }> {
  const patch: ChannelPatch = {};
  const changes: Change[] = [];
  if (input.isArchived === false && channel.isArchived) {
    patch.isArchived = false;
    changes.push({ property: 'is_archived', value: false });
  } else if (input.isArchived === true) {
    throw invalid('Use DELETE /streams/{stream_id} to archive a channel.');
  }
  if (
    input.isPrivate !== undefined ||
    input.isWebPublic !== undefined ||
    input.historyPublicToSubscribers !== undefined
  ) {
    const inviteOnly = input.isPrivate ?? channel.inviteOnly;
    const webPublic = input.isWebPublic ?? channel.isWebPublic;
    if (webPublic && !channel.isWebPublic) throw invalid('Web-public channels are not enabled.');
    if (inviteOnly && webPublic) throw invalid('Invalid parameters');
    // Zulip: a public channel always shares its history.
    const history = !inviteOnly ? true : (input.historyPublicToSubscribers ?? channel.historyPublicToSubscribers);
    if (
      inviteOnly !== channel.inviteOnly ||
      webPublic !== channel.isWebPublic ||
      history !== channel.historyPublicToSubscribers
    ) {
      if (inviteOnly && (input.isDefaultStream ?? (await isDefault(domain, channel))))
        throw invalid('A default channel cannot be private.');
      Object.assign(patch, { inviteOnly, isWebPublic: webPublic, historyPublicToSubscribers: history });
      changes.push({
        property: 'invite_only',
        value: inviteOnly,
        history_public_to_subscribers: history,
        is_web_public: webPublic,
      });
    }
  }
  if (input.messageRetentionDays !== undefined) {
    const days = parseRetention(input.messageRetentionDays);
    if (actor.user.role !== ROLE_OWNER) throw organizationOwnerRequired();
    if (days !== channel.messageRetentionDays) {
      patch.messageRetentionDays = days;
      changes.push({ property: 'message_retention_days', value: days });
    }
  }
  if (input.topicsPolicy !== undefined && input.topicsPolicy !== channel.topicsPolicy) {
    const allowed = actor.realm.permissions.can_set_topics_policy_group ?? 'role:moderators';
    if (!(await domain.permissions.has(actor.user, actor.realm, allowed))) throw invalid('Insufficient permission');
    patch.topicsPolicy = input.topicsPolicy;
    changes.push({ property: 'topics_policy', value: input.topicsPolicy });
  }
  const groups = new GroupValueFormatter(domain, actor.realm);
  const permissions = { ...channel.permissions };
  for (const [setting, value] of Object.entries(input.permissions) as [
    ChannelPermission,
    { new: GroupSettingValue; old?: GroupSettingValue },
  ][]) {
    const current = await groups.format(channel.permissions[setting] ?? 'role:nobody');
    if (value.old !== undefined && !sameGroupValue(value.old, current))
      throw new ConfabError("'old' value does not match the expected value.", { code: 'EXPECTATION_MISMATCH' });
    await checkGroupValue(domain, actor, value.new);
    if (sameGroupValue(value.new, current)) continue;
    permissions[setting] = value.new;
    changes.push({ property: setting, value: value.new });
  }
  if (changes.some((c) => c.property.startsWith('can_'))) patch.permissions = permissions;
  if (input.description !== undefined) {
    const description = input.description.replace(/\n/g, ' ');
    checkChannelDescription(description);
    if (description.length > MAX_CHANNEL_DESCRIPTION_LENGTH)
      throw invalid(`Channel description is too long (limit: ${MAX_CHANNEL_DESCRIPTION_LENGTH} characters)`);
    if (description !== channel.description) {
      const rendered = await renderDescription(domain, actor, description);
      Object.assign(patch, { description, renderedDescription: rendered });
      changes.push({ property: 'description', value: description, rendered_description: rendered });
    }
  }
  if (input.folderId !== undefined && input.folderId !== channel.folderId) {
    if (input.folderId !== null && !(await domain.channelFolders.byId(actor.realm.id, input.folderId)))
      throw invalid('Invalid channel folder ID');
    patch.folderId = input.folderId;
    changes.push({ property: 'folder_id', value: input.folderId });
  }
  if (input.newName !== undefined) {
    const name = input.newName.trim();
    checkChannelName(name);
    if (name !== channel.name) {
      patch.name = name;
      changes.push({ property: 'name', value: name });
    }
  }
  return { patch, changes };
}

async function commit(
  domain: Domain,
  actor: Actor,
  channel: Channel,
  build: (current: Channel, unit: ChannelSettingsUnit) => Promise<{ patch: ChannelPatch; changes: Change[] }>,
): Promise<void> {
  // Read before the transaction, which holds a connection and the channel's row: it must not wait for another
  // connection of its pool (PeopleReader.activeUsersInRealm).
  const users = await domain.readModel.activeUsersInRealm(actor.realm.id);
  await domain.db.write(actor.realm.id, async ({ channelSettings: unit }) => {
    const current = await unit.lock(channel.id);
    if (!current) throw invalid('Invalid channel ID');
    const { patch, changes } = await build(current, unit);
    if (changes.length === 0) return { result: undefined, events: [] };
    if (patch.name !== undefined && (await unit.nameTaken(actor.realm.id, patch.name, channel.id)))
      throw invalid('Channel name already in use.');
    await unit.update(channel.id, patch);
    const after: Channel = { ...current, ...patch, permissions: patch.permissions ?? current.permissions };
    const groups = new GroupValueFormatter(domain, actor.realm);
    // Who may post, in the legacy form older clients read too (Zulip's do_change_stream_group_based_setting).
    const policy = await groups.postPolicy(after);
    if (changes.some((c) => c.property === 'can_send_message_group') && policy !== (await groups.postPolicy(current)))
      changes.push(
        { property: 'stream_post_policy', value: policy },
        { property: 'is_announcement_only', value: policy === STREAM_POST_POLICY_ADMINS },
      );
    const subscribers = await unit.subscribers(channel.id);
    // Those who could see it before the change or can see it now.
    const before = audienceOf(users, current, subscribers);
    const audience = new Set(audienceOf(users, after, subscribers));
    const lost = before.filter((id) => !audience.has(id));
    const event = outboxRecord(
      contracts.streamUpdated,
      {
        stream: await channelRecord(after, subscribers.length, groups),
        changes,
        user_ids: [...audience].sort((a, b) => a - b),
        lost_user_ids: lost.sort((a, b) => a - b),
      },
      { realmId: actor.realm.id, requestId: actor.requestId },
    );
    return { result: undefined, events: [event] };
  });
  domain.directory.forgetChannel(channel.id);
  domain.directory.forgetChannelName(actor.realm.id, channel.name);
}

/** PATCH /streams/{stream_id} (Zulip's update_stream_backend). */
export async function updateChannel(
  domain: Domain,
  actor: Actor,
  channelId: number,
  input: ChannelUpdate,
): Promise<void> {
  const channel = await administeredChannel(domain, actor, channelId);
  if (input.isDefaultStream !== undefined) {
    checkCanManageDefaults(actor);
    if (input.isDefaultStream && (input.isPrivate ?? channel.inviteOnly))
      throw invalid('A default channel cannot be private.');
  }
  // Checked outside the transaction as well, so that bad input never waits for the lock.
  await plan(domain, actor, channel, input);
  await commit(domain, actor, channel, (current) => plan(domain, actor, current, input));
  const makeDefault = input.isDefaultStream;
  if (makeDefault !== undefined)
    await domain.db.write(actor.realm.id, async (store) => ({
      result: undefined,
      events: await setDefaultChannel(store, actor, channel.id, makeDefault),
    }));
}

const isDefault = async (domain: Domain, channel: Channel) =>
  (await domain.defaultChannels.ids(channel.realmId)).includes(channel.id);

/** DELETE /streams/{stream_id}: archiving (Zulip's do_deactivate_stream); it stays readable, takes no messages. */
export async function archiveChannel(domain: Domain, actor: Actor, channelId: number): Promise<void> {
  const channel = await administeredChannel(domain, actor, channelId);
  if (channel.isArchived) throw invalid('Channel is already deactivated');
  await commit(domain, actor, channel, async (current) =>
    current.isArchived
      ? { patch: {}, changes: [] }
      : { patch: { isArchived: true }, changes: [{ property: 'is_archived', value: true }] },
  );
  // An archived channel is no default channel any more (Zulip's do_deactivate_stream).
  await domain.db.write(actor.realm.id, async (store) => ({
    result: undefined,
    events: await setDefaultChannel(store, actor, channel.id, false),
  }));
}

/** GET /streams/{stream_id}/members (Zulip's get_subscribers_backend). */
export async function channelMembers(
  domain: Domain,
  actor: Actor,
  channelId: number,
): Promise<{ subscribers: number[] }> {
  const channel = await domain.directory.channel(channelId);
  if (!channel || channel.realmId !== actor.realm.id) throw invalid('Invalid channel ID');
  const sub = await domain.channels.subscription(actor.user.id, channel.id);
  if (!isAdmin(actor.user) && !basicAccess(actor, channel, sub?.active ? sub : null))
    throw invalid('Invalid channel ID');
  if (isGuest(actor.user) && !sub?.active) throw invalid('Invalid channel ID');
  const subscribers = (await domain.channels.subscribers([channel.id])).get(channel.id) ?? [];
  return { subscribers: [...subscribers].sort((a, b) => a - b) };
}
