import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/** A draft as GET /drafts lists it (the messaging service owns drafts). */
export const draftRecord = z.object({
  id: z.number().int(),
  type: z.enum(['', 'stream', 'private']),
  to: z.array(z.number().int()),
  topic: z.string(),
  content: z.string(),
  /** Unix time in seconds of the last edit. */
  timestamp: z.number(),
});
export type DraftRecord = z.infer<typeof draftRecord>;

const owner = { user_id: z.number().int() };

/** Zulip's `drafts` events, for the owner's clients: add (one or more), update, remove. */
export const draftsAdded = defineEvent('draft.added', z.object({ ...owner, drafts: z.array(draftRecord) }));
export const draftUpdated = defineEvent('draft.updated', z.object({ ...owner, draft: draftRecord }));
export const draftRemoved = defineEvent('draft.removed', z.object({ ...owner, draft_id: z.number().int() }));
