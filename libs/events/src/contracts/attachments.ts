import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/** An uploaded file as GET /attachments lists it. */
export const attachmentRecord = z.object({
  id: z.number().int(),
  name: z.string(),
  path_id: z.string(),
  size: z.number().int(),
  /** Unix time in milliseconds, as Zulip reports it. */
  create_time: z.number().int(),
  messages: z.array(z.object({ id: z.number().int(), date_sent: z.number().int() })),
});

const attachmentChange = z.object({
  user_id: z.number().int(),
  attachment: attachmentRecord,
  /** Bytes the owner's uploads take after the change. */
  upload_space_used: z.number().int(),
});

/** Zulip's `attachment` events (add, update when messages start or stop referring to it, remove). */
export const attachmentAdded = defineEvent('attachment.added', attachmentChange);
export const attachmentUpdated = defineEvent('attachment.updated', attachmentChange);
export const attachmentRemoved = defineEvent(
  'attachment.removed',
  z.object({ user_id: z.number().int(), attachment_id: z.number().int(), upload_space_used: z.number().int() }),
);
