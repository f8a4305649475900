import { ConfabError, invalid } from '@confab/errors';
import { contracts, outboxRecord } from '@confab/events';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { validId } from './ids.js';
import type { StoredSnippet } from './user-content-store.js';

/** Zulip's SavedSnippet.MAX_TITLE_LENGTH. */
export const MAX_SNIPPET_TITLE_LENGTH = 60;

const notFound = () => new ConfabError('Saved snippet does not exist.', { status: 404 });
/** A NUL cannot be stored (PostgreSQL text); refused like message content and topics are. */
function checkStorable(change: { title?: string | undefined; content?: string | undefined }): void {
  if (change.title?.includes('\u0000')) throw invalid('Title must not contain null bytes');
  if (change.content?.includes('\u0000')) throw invalid('Content must not contain null bytes');
}

const meta = (actor: Actor) => ({ realmId: actor.realm.id, requestId: actor.requestId });

export function snippetDict(snippet: StoredSnippet): contracts.SavedSnippetRecord {
  return {
    id: snippet.id,
    title: snippet.title,
    content: snippet.content,
    date_created: Math.floor(snippet.dateCreated.getTime() / 1000),
  };
}

export async function listSnippets(domain: Domain, actor: Actor) {
  return { saved_snippets: (await domain.savedSnippets.list(actor.user.id)).map(snippetDict) };
}

/** Title and content arrive stripped and non-empty (checked by the route's parameters). */
export async function createSnippet(domain: Domain, actor: Actor, title: string, content: string): Promise<number> {
  checkStorable({ title, content });
  return domain.db.write(actor.realm.id, async (store) => {
    const snippet = await store.savedSnippets.create({
      realmId: actor.realm.id,
      userId: actor.user.id,
      title,
      content,
    });
    return {
      result: snippet.id,
      events: [
        outboxRecord(
          contracts.savedSnippetAdded,
          { user_id: actor.user.id, saved_snippet: snippetDict(snippet) },
          meta(actor),
        ),
      ],
    };
  });
}

/**
 * No field given changes nothing and sends no event (as in Zulip), but a snippet that does not exist is still an
 * error (API.md: BAD_REQUEST when the snippet does not exist; Zulip answers success before looking it up).
 */
export async function editSnippet(
  domain: Domain,
  actor: Actor,
  id: number,
  change: { title?: string | undefined; content?: string | undefined },
): Promise<void> {
  if (!validId(id)) throw notFound();
  if (change.title === undefined && change.content === undefined) {
    const own = await domain.savedSnippets.list(actor.user.id);
    if (!own.some((snippet) => snippet.id === id)) throw notFound();
    return;
  }
  checkStorable(change);
  const data: { title?: string; content?: string } = {};
  if (change.title !== undefined) data.title = change.title;
  if (change.content !== undefined) data.content = change.content;
  await domain.db.write(actor.realm.id, async (store) => {
    const snippet = await store.savedSnippets.update(actor.user.id, id, data);
    if (!snippet) throw notFound();
    return {
      result: undefined,
      events: [
        outboxRecord(
          contracts.savedSnippetUpdated,
          { user_id: actor.user.id, saved_snippet: snippetDict(snippet) },
          meta(actor),
        ),
      ],
    };
  });
}

export async function deleteSnippet(domain: Domain, actor: Actor, id: number): Promise<void> {
  if (!validId(id)) throw notFound();
  await domain.db.write(actor.realm.id, async (store) => {
    if (!(await store.savedSnippets.delete(actor.user.id, id))) throw notFound();
    return {
      result: undefined,
      events: [
        outboxRecord(contracts.savedSnippetRemoved, { user_id: actor.user.id, saved_snippet_id: id }, meta(actor)),
      ],
    };
  });
}
