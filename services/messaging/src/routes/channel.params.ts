import { p, t, type Schema } from '@confab/http';
import type { NewChannelSettings } from '../domain/channel-rules.js';
import type { ChannelPermission, GroupSettingValue } from '../domain/types.js';
import { CHANNEL_PERMISSION_SETTINGS } from '../domain/types.js';

/** A group-setting value: a group id or an anonymous group. */
export const groupSettingValue: Schema<GroupSettingValue> = t.union(
  t.int(),
  t.object({ direct_members: t.list(t.int()), direct_subgroups: t.list(t.int()) }),
);

const permissionParams = Object.fromEntries(
  CHANNEL_PERMISSION_SETTINGS.map((name) => [name, p.json(groupSettingValue).optional()]),
) as Record<ChannelPermission, ReturnType<ReturnType<typeof p.json<GroupSettingValue>>['optional']>>;

/** The optional settings both channel-creating endpoints accept. */
export const newChannelParams = {
  invite_only: p.bool().default(false),
  is_web_public: p.bool().default(false),
  is_default_stream: p.bool().default(false),
  history_public_to_subscribers: p.bool().optional(),
  message_retention_days: p.json(t.union(t.string(), t.int())).default('realm_default'),
  topics_policy: p
    .json(t.literal('inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'))
    .optional(),
  folder_id: p.int().optional(),
  announce: p.bool().default(false),
  send_new_subscription_messages: p.bool().optional(),
  ...permissionParams,
};

type NewChannelValues = {
  invite_only: boolean;
  is_web_public: boolean;
  is_default_stream: boolean;
  history_public_to_subscribers: boolean | undefined;
  message_retention_days: string | number;
  topics_policy: NewChannelSettings['topicsPolicy'];
  folder_id: number | undefined;
} & Record<ChannelPermission, GroupSettingValue | undefined>;

export function newChannelSettings(values: NewChannelValues): NewChannelSettings {
  const permissions: NewChannelSettings['permissions'] = {};
  for (const name of CHANNEL_PERMISSION_SETTINGS) {
    const value = values[name];
    if (value !== undefined) permissions[name] = value;
  }
  return {
    inviteOnly: values.invite_only,
    isWebPublic: values.is_web_public,
    isDefaultStream: values.is_default_stream,
    historyPublicToSubscribers: values.history_public_to_subscribers,
    messageRetentionDays: values.message_retention_days,
    topicsPolicy: values.topics_policy,
    folderId: values.folder_id,
    permissions,
  };
}

/** PATCH /streams/{stream_id}: each group setting as Zulip's `{new, old}` change. */
export const channelPermissionChanges = Object.fromEntries(
  CHANNEL_PERMISSION_SETTINGS.map((name) => [
    name,
    p.json(t.object({ new: groupSettingValue, old: t.optional(groupSettingValue) })).optional(),
  ]),
) as Record<
  ChannelPermission,
  ReturnType<ReturnType<typeof p.json<{ new: GroupSettingValue; old: GroupSettingValue | undefined }>>['optional']>
>;
