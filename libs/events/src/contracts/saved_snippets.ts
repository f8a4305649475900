import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/** A saved snippet as GET /saved_snippets lists it (the messaging service owns them). */
export const savedSnippetRecord = z.object({
  id: z.number().int(),
  title: z.string(),
  content: z.string(),
  /** Unix time in seconds. */
  date_created: z.number().int(),
});
export type SavedSnippetRecord = z.infer<typeof savedSnippetRecord>;

const owner = { user_id: z.number().int() };

/** Zulip's `saved_snippets` events, for the owner's clients. */
export const savedSnippetAdded = defineEvent(
  'saved_snippet.added',
  z.object({ ...owner, saved_snippet: savedSnippetRecord }),
);
export const savedSnippetUpdated = defineEvent(
  'saved_snippet.updated',
  z.object({ ...owner, saved_snippet: savedSnippetRecord }),
);
export const savedSnippetRemoved = defineEvent(
  'saved_snippet.removed',
  z.object({ ...owner, saved_snippet_id: z.number().int() }),
);
