import { p, route } from '@confab/http';
import { actorFor } from '../domain/actor.js';
import { setEditTypingStatus, setTypingStatus } from '../domain/typing.js';
import type { MessagingDeps } from '../deps.js';

export function typingRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  return [
    route({
      method: 'POST',
      path: '/typing',
      auth: 'user',
      params: {
        type: p.enum('direct', 'stream', 'channel', 'private').default('direct'),
        op: p.enum('start', 'stop'),
        to: p.intList().optional(),
        stream_id: p.int().optional(),
        topic: p.string().optional(),
      },
      async handler({ identity, params, requestId }) {
        const actor = await actorFor(domain, identity, requestId);
        await setTypingStatus(domain, actor, {
          type: params.type,
          op: params.op,
          to: params.to,
          streamId: params.stream_id,
          topic: params.topic,
        });
        return {};
      },
    }),
    route({
      method: 'POST',
      path: '/messages/{message_id:int}/typing',
      auth: 'user',
      params: { op: p.enum('start', 'stop') },
      async handler({ identity, params, path, requestId }) {
        const actor = await actorFor(domain, identity, requestId);
        await setEditTypingStatus(domain, actor, path.message_id, params.op);
        return {};
      },
    }),
  ];
}
