import { p, t } from '@confab/http';
import { getStream, getStreamId, listStreams } from '../domain/channel-queries.js';
import { archiveChannel, channelMembers, updateChannel, type ChannelUpdate } from '../domain/channel-settings.js';
import { createChannel } from '../domain/channels.js';
import { addDefaultChannel, removeDefaultChannel } from '../domain/default-channels.js';
import { channelEmailAddress } from '../domain/subscription-updates.js';
import { deleteTopic } from '../domain/topic-deletion.js';
import { CHANNEL_PERMISSION_SETTINGS } from '../domain/types.js';
import type { MessagingDeps } from '../deps.js';
import { actorRoute } from './actor-route.js';
import { channelPermissionChanges, newChannelParams, newChannelSettings } from './channel.params.js';

export function streamRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  const withActor = actorRoute(domain);
  return [
    withActor({
      method: 'GET',
      path: '/streams',
      auth: 'user',
      params: {
        include_public: p.bool().default(true),
        include_web_public: p.bool().default(false),
        include_subscribed: p.bool().default(true),
        exclude_archived: p.bool().default(true),
        include_all_active: p.bool().default(false),
        include_all: p.bool().default(false),
        include_default: p.bool().default(false),
        include_owner_subscribed: p.bool().default(false),
        include_can_access_content: p.bool().default(false),
      },
      async handler({ actor, params }) {
        const streams = await listStreams(domain, actor, {
          includePublic: params.include_public,
          includeWebPublic: params.include_web_public,
          includeSubscribed: params.include_subscribed,
          excludeArchived: params.exclude_archived,
          includeAllActive: params.include_all_active,
          includeAll: params.include_all,
          includeDefault: params.include_default,
        });
        return { streams };
      },
    }),
    withActor({
      method: 'GET',
      path: '/streams/{stream_id:int}',
      auth: 'user',
      async handler({ actor, path }) {
        return { stream: await getStream(domain, actor, path.stream_id) };
      },
    }),
    withActor({
      method: 'PATCH',
      path: '/streams/{stream_id:int}',
      auth: 'user',
      params: {
        description: p.string({ nulCheckedByDomain: true }).optional(),
        new_name: p.string({ nulCheckedByDomain: true }).optional(),
        is_private: p.bool().optional(),
        is_web_public: p.bool().optional(),
        history_public_to_subscribers: p.bool().optional(),
        message_retention_days: p.json(t.union(t.string(), t.int())).optional(),
        topics_policy: p
          .json(t.literal('inherit', 'allow_empty_topic', 'disable_empty_topic', 'empty_topic_only'))
          .optional(),
        is_archived: p.bool().optional(),
        is_default_stream: p.bool().optional(),
        folder_id: p.json(t.nullable(t.int())).optional(),
        ...channelPermissionChanges,
      },
      async handler({ actor, params, path }) {
        const permissions: ChannelUpdate['permissions'] = {};
        for (const name of CHANNEL_PERMISSION_SETTINGS) {
          const change = params[name];
          if (change) permissions[name] = change.old === undefined ? { new: change.new } : change;
        }
        await updateChannel(domain, actor, path.stream_id, {
          newName: params.new_name,
          description: params.description,
          isPrivate: params.is_private,
          isWebPublic: params.is_web_public,
          historyPublicToSubscribers: params.history_public_to_subscribers,
          messageRetentionDays: params.message_retention_days,
          topicsPolicy: params.topics_policy,
          isArchived: params.is_archived,
          isDefaultStream: params.is_default_stream,
          folderId: params.folder_id,
          permissions,
        });
        return {};
      },
    }),
    withActor({
      method: 'DELETE',
      path: '/streams/{stream_id:int}',
      auth: 'user',
      async handler({ actor, path }) {
        await archiveChannel(domain, actor, path.stream_id);
        return {};
      },
    }),
    withActor({
      method: 'GET',
      path: '/streams/{stream_id:int}/email_address',
      auth: 'user',
      params: { sender_id: p.int({ min: 0 }).optional() },
      async handler({ actor, path, params }) {
        return channelEmailAddress(domain, actor, path.stream_id, params.sender_id);
      },
    }),
    withActor({
      method: 'POST',
      path: '/streams/{stream_id:int}/delete_topic',
      auth: 'user',
      params: { topic_name: p.string() },
      async handler({ actor, path, params }) {
        return deleteTopic(domain, actor, path.stream_id, params.topic_name);
      },
    }),
    withActor({
      method: 'GET',
      path: '/streams/{stream_id:int}/members',
      auth: 'user',
      async handler({ actor, path }) {
        return channelMembers(domain, actor, path.stream_id);
      },
    }),
    withActor({
      method: 'POST',
      path: '/default_streams',
      auth: 'user',
      params: { stream_id: p.int() },
      async handler({ actor, params }) {
        await addDefaultChannel(domain, actor, params.stream_id);
        return {};
      },
    }),
    withActor({
      method: 'DELETE',
      path: '/default_streams',
      auth: 'user',
      params: { stream_id: p.int() },
      async handler({ actor, params }) {
        await removeDefaultChannel(domain, actor, params.stream_id);
        return {};
      },
    }),
    withActor({
      method: 'GET',
      path: '/get_stream_id',
      auth: 'user',
      params: { stream: p.string() },
      async handler({ actor, params }) {
        return { stream_id: await getStreamId(domain, actor, params.stream) };
      },
    }),
    withActor({
      method: 'POST',
      path: '/channels/create',
      auth: 'user',
      params: {
        name: p.string({ nulCheckedByDomain: true }),
        description: p.string({ maxLength: 1024, nulCheckedByDomain: true }).default(''),
        subscribers: p.json(t.list(t.int())),
        ...newChannelParams,
      },
      async handler({ actor, params }) {
        return createChannel(domain, actor, {
          name: params.name,
          description: params.description,
          subscribers: params.subscribers,
          settings: newChannelSettings(params),
        });
      },
    }),
  ];
}
