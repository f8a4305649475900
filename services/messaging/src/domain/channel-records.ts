import type { contracts } from '@confab/events';
import { STREAM_POST_POLICY_ADMINS, streamPostPolicy } from '@confab/zulip';
import type { Domain } from './context.js';
import type { PeopleUnit } from './people.js';
import { systemGroupMembers } from './permissions.js';
import type { Channel, ChannelPermission, GroupSettingValue, PermissionValue, Realm, Subscription } from './types.js';
import { CHANNEL_PERMISSION_SETTINGS } from './types.js';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * Turns stored permission values into the API's group-setting values: a system group by name becomes its group
 * id (known once the groups service has announced the organization's system groups); until then it is shown as
 * the anonymous group of the users its role rule selects.
 */
export class GroupValueFormatter {
  private systemIds: Map<string, number> | undefined;
  private roleMembers = new Map<string, number[]>();

  /** `people`: the unit of work's people when it formats inside one (PeopleReader.activeUsersInRealm). */
  constructor(
    private readonly domain: Domain,
    private readonly realm: Realm,
    private readonly people?: PeopleUnit,
  ) {}

  async format(value: PermissionValue): Promise<GroupSettingValue> {
    if (typeof value !== 'string') return value;
    if (!this.systemIds) {
      const groups = await this.domain.directory.groupsOf(this.realm.id);
      this.systemIds = new Map([...groups.values()].filter((g) => g.isSystemGroup).map((g) => [g.name, g.id]));
    }
    const id = this.systemIds.get(value);
    if (id !== undefined) return id;
    let members = this.roleMembers.get(value);
    if (!members) {
      members = systemGroupMembers(
        value,
        await (this.people ?? this.domain.readModel).activeUsersInRealm(this.realm.id),
        this.realm,
      );
      this.roleMembers.set(value, members);
    }
    return { direct_members: members, direct_subgroups: [] };
  }

  /** The name of the system group a value stands for (by name or by id); null for any other group. */
  async systemGroupName(value: PermissionValue | undefined): Promise<string | null> {
    if (typeof value === 'string') return value;
    if (typeof value !== 'number') return null;
    if (!this.systemIds) await this.format('role:nobody');
    for (const [name, id] of this.systemIds ?? []) if (id === value) return name;
    return null;
  }

  /** Zulip's legacy stream_post_policy of a channel (get_stream_post_policy_value_based_on_group_setting). */
  async postPolicy(channel: Channel): Promise<number> {
    return streamPostPolicy(await this.systemGroupName(channel.permissions.can_send_message_group));
  }

  async formatAll(
    permissions: Record<ChannelPermission, PermissionValue>,
  ): Promise<Record<ChannelPermission, GroupSettingValue>> {
    const out = {} as Record<ChannelPermission, GroupSettingValue>;
    for (const setting of CHANNEL_PERMISSION_SETTINGS)
      out[setting] = await this.format(permissions[setting] ?? 'role:nobody');
    return out;
  }
}

export interface ChannelFacts {
  subscriberCount: number;
  recentlyActive: boolean;
}

/** Zulip's stream dict (GET /streams, GET /streams/{id}, and the channel part of a subscription). */
export async function streamDict(
  channel: Channel,
  facts: ChannelFacts,
  groups: GroupValueFormatter,
): Promise<Record<string, unknown>> {
  const permissions = await groups.formatAll(channel.permissions);
  const postPolicy = await groups.postPolicy(channel);
  return {
    stream_id: channel.id,
    name: channel.name,
    is_archived: channel.isArchived,
    description: channel.description,
    rendered_description: channel.renderedDescription,
    date_created: seconds(channel.dateCreated),
    creator_id: channel.creatorId,
    invite_only: channel.inviteOnly,
    is_web_public: channel.isWebPublic,
    stream_post_policy: postPolicy,
    is_announcement_only: postPolicy === STREAM_POST_POLICY_ADMINS,
    message_retention_days: channel.messageRetentionDays,
    history_public_to_subscribers: channel.historyPublicToSubscribers,
    topics_policy: channel.topicsPolicy,
    first_message_id: channel.firstMessageId,
    folder_id: channel.folderId,
    is_recently_active: facts.recentlyActive,
    ...permissions,
    subscriber_count: facts.subscriberCount,
    stream_weekly_traffic: null,
  };
}

/** Zulip's subscription dict: the stream dict plus the user's personal settings for it. */
export async function subscriptionDict(
  channel: Channel,
  sub: Subscription,
  facts: ChannelFacts,
  groups: GroupValueFormatter,
  subscribers?: number[],
): Promise<Record<string, unknown>> {
  const dict = await streamDict(channel, facts, groups);
  Object.assign(dict, {
    color: sub.color,
    is_muted: sub.isMuted,
    in_home_view: !sub.isMuted,
    pin_to_top: sub.pinToTop,
    desktop_notifications: sub.desktopNotifications,
    audible_notifications: sub.audibleNotifications,
    push_notifications: sub.pushNotifications,
    email_notifications: sub.emailNotifications,
    wildcard_mentions_notify: sub.wildcardMentionsNotify,
  });
  if (subscribers) dict.subscribers = subscribers;
  return dict;
}

/** A channel as the `stream.*` and `subscription.*` events carry it. */
export async function channelRecord(
  channel: Channel,
  subscriberCount: number,
  groups: GroupValueFormatter,
): Promise<contracts.ChannelRecord> {
  return {
    stream_id: channel.id,
    realm_id: channel.realmId,
    name: channel.name,
    description: channel.description,
    rendered_description: channel.renderedDescription,
    date_created: seconds(channel.dateCreated),
    creator_id: channel.creatorId,
    invite_only: channel.inviteOnly,
    is_web_public: channel.isWebPublic,
    history_public_to_subscribers: channel.historyPublicToSubscribers,
    message_retention_days: channel.messageRetentionDays,
    topics_policy: channel.topicsPolicy,
    first_message_id: channel.firstMessageId,
    folder_id: channel.folderId,
    is_archived: channel.isArchived,
    subscriber_count: subscriberCount,
    stream_post_policy: await groups.postPolicy(channel),
    permissions: await groups.formatAll(channel.permissions),
  };
}

export function subscriptionRecord(sub: Subscription) {
  return {
    user_id: sub.userId,
    stream_id: sub.channelId,
    color: sub.color,
    is_muted: sub.isMuted,
    pin_to_top: sub.pinToTop,
    desktop_notifications: sub.desktopNotifications,
    audible_notifications: sub.audibleNotifications,
    push_notifications: sub.pushNotifications,
    email_notifications: sub.emailNotifications,
    wildcard_mentions_notify: sub.wildcardMentionsNotify,
  };
}
