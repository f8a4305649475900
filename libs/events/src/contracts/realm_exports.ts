import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/** A data export as GET /export/realm lists it (Zulip's RealmExport dictionary). */
export const realmExportRecord = z.object({
  id: z.number().int(),
  acting_user_id: z.number().int(),
  /** Unix time in seconds, with a fraction. */
  export_time: z.number(),
  deleted_timestamp: z.number().nullable(),
  failed_timestamp: z.number().nullable(),
  export_url: z.string().nullable(),
  pending: z.boolean(),
  /** 1 public, 2 standard. */
  export_type: z.number().int(),
});
export type RealmExportRecord = z.infer<typeof realmExportRecord>;

/** Every export of the organization after a change, for its administrators' clients (Zulip's realm_export). */
export const realmExportsChanged = defineEvent(
  'realm_export.changed',
  z.object({ realm_id: z.number().int(), exports: z.array(realmExportRecord) }),
);
