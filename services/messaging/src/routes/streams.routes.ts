import { p, route, t } from '@confab/http';
import { actorFor } from '../domain/actor.js';
import { getStream, getStreamId, listStreams } from '../domain/channel-queries.js';
import { createChannel } from '../domain/channels.js';
import type { MessagingDeps } from '../deps.js';
import { newChannelParams, newChannelSettings } from './channel.params.js';

export function streamRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  return [
    route({
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
      async handler({ identity, params, requestId }) {
        const actor = await actorFor(domain, identity, requestId);
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
    route({
      method: 'GET',
      path: '/streams/{stream_id:int}',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        const actor = await actorFor(domain, identity, requestId);
        return { stream: await getStream(domain, actor, path.stream_id) };
      },
    }),
    route({
      method: 'GET',
      path: '/get_stream_id',
      auth: 'user',
      params: { stream: p.string() },
      async handler({ identity, params, requestId }) {
        const actor = await actorFor(domain, identity, requestId);
        return { stream_id: await getStreamId(domain, actor, params.stream) };
      },
    }),
    route({
      method: 'POST',
      path: '/channels/create',
      auth: 'user',
      params: {
        name: p.string(),
        description: p.string({ maxLength: 1024 }).default(''),
        subscribers: p.json(t.list(t.int())),
        ...newChannelParams,
      },
      async handler({ identity, params, requestId }) {
        const actor = await actorFor(domain, identity, requestId);
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
