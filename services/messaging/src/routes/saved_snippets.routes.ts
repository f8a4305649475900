import { invalid } from '@confab/errors';
import { p } from '@confab/http';
import {
  createSnippet,
  deleteSnippet,
  editSnippet,
  listSnippets,
  MAX_SNIPPET_TITLE_LENGTH,
} from '../domain/saved-snippets.js';
import { MAX_MESSAGE_LENGTH } from '../domain/text.js';
import type { MessagingDeps } from '../deps.js';
import { actorRoute } from './actor-route.js';

/** Zulip's StringConstraints(min_length=1, strip_whitespace=True): stripped, then at least one character. */
const title = () => p.string({ strip: true, maxLength: MAX_SNIPPET_TITLE_LENGTH, nulCheckedByDomain: true });
const content = () => p.string({ strip: true, maxLength: MAX_MESSAGE_LENGTH, nulCheckedByDomain: true });

function nonEmpty(value: string | undefined, message: string): void {
  if (value !== undefined && value.length === 0) throw invalid(message);
}

export function savedSnippetRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  const withActor = actorRoute(domain);
  return [
    withActor({
      method: 'GET',
      path: '/saved_snippets',
      auth: 'user',
      async handler({ actor }) {
        return listSnippets(domain, actor);
      },
    }),
    withActor({
      method: 'POST',
      path: '/saved_snippets',
      auth: 'user',
      params: { title: title(), content: content() },
      async handler({ actor, params }) {
        nonEmpty(params.title, 'Title cannot be empty.');
        nonEmpty(params.content, 'Content cannot be empty.');
        return { saved_snippet_id: await createSnippet(domain, actor, params.title, params.content) };
      },
    }),
    withActor({
      method: 'PATCH',
      path: '/saved_snippets/{saved_snippet_id:int}',
      auth: 'user',
      params: { title: title().optional(), content: content().optional() },
      async handler({ actor, params, path }) {
        nonEmpty(params.title, 'Title cannot be empty.');
        nonEmpty(params.content, 'Content cannot be empty.');
        await editSnippet(domain, actor, path.saved_snippet_id, { title: params.title, content: params.content });
        return {};
      },
    }),
    withActor({
      method: 'DELETE',
      path: '/saved_snippets/{saved_snippet_id:int}',
      auth: 'user',
      async handler({ actor, path }) {
        await deleteSnippet(domain, actor, path.saved_snippet_id);
        return {};
      },
    }),
  ];
}
