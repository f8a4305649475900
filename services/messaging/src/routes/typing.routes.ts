import { p } from '@confab/http';
import { setEditTypingStatus, setTypingStatus } from '../domain/typing.js';
import type { MessagingDeps } from '../deps.js';
import { actorRoute } from './actor-route.js';

export function typingRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  const withActor = actorRoute(domain);
  return [
    withActor({
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
      async handler({ actor, params }) {
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
    withActor({
      method: 'POST',
      path: '/messages/{message_id:int}/typing',
      auth: 'user',
      params: { op: p.enum('start', 'stop') },
      async handler({ actor, params, path }) {
        await setEditTypingStatus(domain, actor, path.message_id, params.op);
        return {};
      },
    }),
  ];
}
