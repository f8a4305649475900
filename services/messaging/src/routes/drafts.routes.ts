import { p, route, t } from '@confab/http';
import { actorFor } from '../domain/actor.js';
import {
  checkDraftsEnabled,
  createDrafts,
  deleteDraft,
  draftSchema,
  editDraft,
  listDrafts,
  parseJsonField,
} from '../domain/drafts.js';
import type { MessagingDeps } from '../deps.js';

/** Drafts (Zulip's /drafts): the synchronization setting is checked before the parameters, as Zulip does. */
export function draftRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  return [
    route({
      method: 'GET',
      path: '/drafts',
      auth: 'user',
      async handler({ identity, requestId }) {
        return listDrafts(domain, await actorFor(domain, identity, requestId));
      },
    }),
    route({
      method: 'POST',
      path: '/drafts',
      auth: 'user',
      params: { drafts: p.string().optional() },
      async handler({ identity, params, requestId }) {
        const actor = await actorFor(domain, identity, requestId);
        checkDraftsEnabled(actor);
        const drafts = parseJsonField(params.drafts, 'drafts', t.list(draftSchema));
        return { ids: await createDrafts(domain, actor, drafts) };
      },
    }),
    route({
      method: 'PATCH',
      path: '/drafts/{draft_id:int}',
      auth: 'user',
      params: { draft: p.string().optional() },
      async handler({ identity, params, path, requestId }) {
        const actor = await actorFor(domain, identity, requestId);
        checkDraftsEnabled(actor);
        const draft = parseJsonField(params.draft, 'draft', draftSchema);
        await editDraft(domain, actor, path.draft_id, draft);
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path: '/drafts/{draft_id:int}',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await deleteDraft(domain, await actorFor(domain, identity, requestId), path.draft_id);
        return {};
      },
    }),
  ];
}
