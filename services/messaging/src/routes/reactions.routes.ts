import { p } from '@confab/http';
import { addReaction, removeReaction } from '../domain/reactions.js';
import type { MessagingDeps } from '../deps.js';
import { actorRoute } from './actor-route.js';

export function reactionRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  const withActor = actorRoute(domain);
  return [
    withActor({
      method: 'POST',
      path: '/messages/{message_id:int}/reactions',
      auth: 'user',
      params: { emoji_name: p.string(), emoji_code: p.string().optional(), reaction_type: p.string().optional() },
      async handler({ actor, params, path }) {
        await addReaction(domain, actor, path.message_id, {
          emojiName: params.emoji_name,
          emojiCode: params.emoji_code,
          reactionType: params.reaction_type,
        });
        return {};
      },
    }),
    withActor({
      method: 'DELETE',
      path: '/messages/{message_id:int}/reactions',
      auth: 'user',
      params: {
        emoji_name: p.string().optional(),
        emoji_code: p.string().optional(),
        reaction_type: p.string().default('unicode_emoji'),
      },
      async handler({ actor, params, path }) {
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
