import { invalid } from '@confab/errors';
import { p, route } from '@confab/http';
import { actorFor } from '../domain/actor.js';
import {
  createSnippet,
  deleteSnippet,
  editSnippet,
  listSnippets,
  MAX_SNIPPET_TITLE_LENGTH,
} from '../domain/saved-snippets.js';
import { MAX_MESSAGE_LENGTH } from '../domain/text.js';
import type { MessagingDeps } from '../deps.js';

/** Zulip's StringConstraints(min_length=1, strip_whitespace=True): stripped, then at least one character. */
const title = () => p.string({ strip: true, maxLength: MAX_SNIPPET_TITLE_LENGTH });
const content = () => p.string({ strip: true, maxLength: MAX_MESSAGE_LENGTH });

function nonEmpty(value: string | undefined, message: string): void {
  if (value !== undefined && value.length === 0) throw invalid(message);
}

export function savedSnippetRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  return [
    route({
      method: 'GET',
      path: '/saved_snippets',
      auth: 'user',
      async handler({ identity, requestId }) {
        return listSnippets(domain, await actorFor(domain, identity, requestId));
      },
    }),
    route({
      method: 'POST',
      path: '/saved_snippets',
      auth: 'user',
      params: { title: title(), content: content() },
      async handler({ identity, params, requestId }) {
        nonEmpty(params.title, 'Title cannot be empty.');
        nonEmpty(params.content, 'Content cannot be empty.');
        const actor = await actorFor(domain, identity, requestId);
        return { saved_snippet_id: await createSnippet(domain, actor, params.title, params.content) };
      },
    }),
    route({
      method: 'PATCH',
      path: '/saved_snippets/{saved_snippet_id:int}',
      auth: 'user',
      params: { title: title().optional(), content: content().optional() },
      async handler({ identity, params, path, requestId }) {
        nonEmpty(params.title, 'Title cannot be empty.');
        nonEmpty(params.content, 'Content cannot be empty.');
        const actor = await actorFor(domain, identity, requestId);
        await editSnippet(domain, actor, path.saved_snippet_id, { title: params.title, content: params.content });
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path: '/saved_snippets/{saved_snippet_id:int}',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await deleteSnippet(domain, await actorFor(domain, identity, requestId), path.saved_snippet_id);
        return {};
      },
    }),
  ];
}
