import { p, route } from '@confab/http';
import { actorFor } from '../domain/actor.js';
import { addReaction, removeReaction } from '../domain/reactions.js';
import type { MessagingDeps } from '../deps.js';

export function reactionRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  return [
    route({
      method: 'POST',
      path: '/messages/{message_id:int}/reactions',
      auth: 'user',
      params: { emoji_name: p.string(), emoji_code: p.string().optional(), reaction_type: p.string().optional() },
      async handler({ identity, params, path, requestId }) {
        const actor = await actorFor(domain, identity, requestId);
        await addReaction(domain, actor, path.message_id, {
          emojiName: params.emoji_name,
          emojiCode: params.emoji_code,
          reactionType: params.reaction_type,
        });
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path: '/messages/{message_id:int}/reactions',
      auth: 'user',
      params: {
        emoji_name: p.string().optional(),
        emoji_code: p.string().optional(),
        reaction_type: p.string().default('unicode_emoji'),
      },
      async handler({ identity, params, path, requestId }) {
        const actor = await actorFor(domain, identity, requestId);
        await removeReaction(domain, actor, path.message_id, {
          emojiName: params.emoji_name,
          emojiCode: params.emoji_code,
          reactionType: params.reaction_type,
        });
        return {};
      },
    }),
  ];
}
