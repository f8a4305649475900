import { ConfabError, invalid } from '@confab/errors';
import { p, t } from '@confab/http';
import { setTopicMuted, setTopicVisibility } from '../domain/user-topics.js';
import type { MessagingDeps } from '../deps.js';
import { actorRoute } from './actor-route.js';

export function userTopicRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  const withActor = actorRoute(domain);
  return [
    withActor({
      method: 'POST',
      path: '/user_topics',
      auth: 'user',
      params: {
        stream_id: p.int(),
        topic: p.string({ nulCheckedByDomain: true }),
        visibility_policy: p.json(t.literal(0, 1, 2, 3)),
      },
      async handler({ actor, params }) {
        await setTopicVisibility(domain, actor, {
          channelId: params.stream_id,
          topic: params.topic,
          policy: params.visibility_policy,
        });
        return {};
      },
    }),
    withActor({
      // The deprecated form of POST /user_topics that older clients (zulip-terminal) still use: mute is policy 1,
      // unmute is 0; like Zulip since feature level 170, repeating either is not an error.
      method: 'PATCH',
      path: '/users/me/subscriptions/muted_topics',
      auth: 'user',
      params: {
        stream_id: p.int().optional(),
        stream: p.string().optional(),
        topic: p.string({ nulCheckedByDomain: true }),
        op: p.enum('add', 'remove'),
      },
      async handler({ actor, params }) {
        if (params.stream_id === undefined && params.stream === undefined)
          throw invalid("Missing 'stream_id' argument");
        if (params.stream_id !== undefined && params.stream !== undefined) {
          throw new ConfabError('Unsupported parameter combination: stream_id, stream', {
            data: { parameters: 'stream_id, stream' },
          });
        }
        await setTopicMuted(domain, actor, {
          channel: params.stream_id ?? params.stream!,
          topic: params.topic,
          muted: params.op === 'add',
        });
        return {};
      },
    }),
  ];
}
