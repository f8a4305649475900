import { p, route, t } from '@confab/http';
import { actorFor } from '../domain/actor.js';
import { setTopicVisibility } from '../domain/user-topics.js';
import type { MessagingDeps } from '../deps.js';

export function userTopicRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  return [
    route({
      method: 'POST',
      path: '/user_topics',
      auth: 'user',
      params: { stream_id: p.int(), topic: p.string(), visibility_policy: p.json(t.literal(0, 1, 2, 3)) },
      async handler({ identity, params, requestId }) {
        const actor = await actorFor(domain, identity, requestId);
        await setTopicVisibility(domain, actor, {
          channelId: params.stream_id,
          topic: params.topic,
          policy: params.visibility_policy,
        });
        return {};
      },
    }),
  ];
}
