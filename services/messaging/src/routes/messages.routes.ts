import { invalid } from '@confab/errors';
import { p, route } from '@confab/http';
import { actorFor } from '../domain/actor.js';
import { clientName } from '../domain/client.js';
import { sendMessage } from '../domain/send.js';
import type { MessagingDeps } from '../deps.js';

export function messageRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  return [
    route({
      method: 'POST',
      path: '/messages',
      auth: 'user',
      // Declared in Zulip's order, so the first missing or invalid parameter is the one Zulip reports.
      params: {
        forged: p.string().optional(),
        local_id: p.string().optional(),
        content: p.string(),
        queue_id: p.string().optional(),
        read_by_sender: p.bool().optional(),
        sender: p.string().optional(),
        to: p.string().optional(),
        type: p.enum('direct', 'private', 'stream', 'channel'),
        topic: p.string().alias('subject').optional(),
        client: p.string().optional(),
      },
      async handler({ identity, params, req, requestId }) {
        if (params.forged === 'yes' || params.forged === 'true') throw invalid('User not authorized for this query');
        if (params.sender !== undefined) throw invalid('Invalid mirrored message');
        const actor = await actorFor(domain, identity, requestId);
        return sendMessage(domain, actor, {
          type: params.type,
          to: params.to,
          topic: params.topic,
          content: params.content,
          queueId: params.queue_id,
          localId: params.local_id,
          readBySender: params.read_by_sender,
          client: clientName(req.headers['user-agent'], params.client),
        });
      },
    }),
    route({
      method: 'POST',
      path: '/messages/render',
      auth: 'user',
      params: { content: p.string() },
      async handler({ identity, params, requestId }) {
        const actor = await actorFor(domain, identity, requestId);
        const rendered = await domain.renderer.render(actor.realm, params.content, actor.user);
        return { rendered: rendered.html };
      },
    }),
  ];
}
