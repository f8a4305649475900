import { invalid, missingArgument } from '@confab/errors';
import { p, parseValue, t } from '@confab/http';
import { checkDraftsEnabled, createDrafts, deleteDraft, editDraft, listDrafts } from '../domain/drafts.js';
import type { MessagingDeps } from '../deps.js';
import { actorRoute } from './actor-route.js';

/** Zulip's DraftData (extra keys forbidden); `content` must not be blank. */
const draftSchema = t.object({
  type: t.literal('', 'stream', 'private'),
  to: t.list(t.int()),
  topic: t.string({ nulCheckedByDomain: true }),
  content: t.refine(t.string({ nulCheckedByDomain: true }), (value) =>
    value.trim() === '' ? '{var_name} cannot be blank' : undefined,
  ),
  timestamp: t.optional(t.nullable(t.float())),
});

/** A JSON form field checked against a schema, with Zulip's messages (after the synchronization check). */
function parseJsonField<T>(raw: string | undefined, name: string, schema: Parameters<typeof parseValue<T>>[0]): T {
  if (raw === undefined) throw missingArgument(name);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalid(`${name} is not valid JSON`);
  }
  return parseValue(schema, value, name);
}

/** Drafts (Zulip's /drafts): the synchronization setting is checked before the parameters, as Zulip does. */
export function draftRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  const withActor = actorRoute(domain);
  return [
    withActor({
      method: 'GET',
      path: '/drafts',
      auth: 'user',
      async handler({ actor }) {
        return listDrafts(domain, actor);
      },
    }),
    withActor({
      method: 'POST',
      path: '/drafts',
      auth: 'user',
      params: { drafts: p.string().optional() },
      async handler({ actor, params }) {
        checkDraftsEnabled(actor);
        const drafts = parseJsonField(params.drafts, 'drafts', t.list(draftSchema));
        return { ids: await createDrafts(domain, actor, drafts) };
      },
    }),
    withActor({
      method: 'PATCH',
      path: '/drafts/{draft_id:int}',
      auth: 'user',
      params: { draft: p.string().optional() },
      async handler({ actor, params, path }) {
        checkDraftsEnabled(actor);
        const draft = parseJsonField(params.draft, 'draft', draftSchema);
        await editDraft(domain, actor, path.draft_id, draft);
        return {};
      },
    }),
    withActor({
      method: 'DELETE',
      path: '/drafts/{draft_id:int}',
      auth: 'user',
      async handler({ actor, path }) {
        await deleteDraft(domain, actor, path.draft_id);
        return {};
      },
    }),
  ];
}
