import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/** A custom emoji as Zulip's API describes it; `id` is the `emoji_code` of `realm_emoji` reactions. */
export const realmEmojiRecord = z.object({
  id: z.string(),
  name: z.string(),
  source_url: z.string(),
  still_url: z.string().nullable(),
  deactivated: z.boolean(),
  author_id: z.number().int().nullable(),
});
export type RealmEmojiRecord = z.infer<typeof realmEmojiRecord>;

const realmEmojiChange = z.object({
  realm_id: z.number().int(),
  emoji: realmEmojiRecord,
  /** Every custom emoji of the organization after the change, by id. */
  realm_emoji: z.record(z.string(), realmEmojiRecord),
});

export type RealmEmojiChange = z.infer<typeof realmEmojiChange>;

/** Messaging renders `:name:` and accepts reactions for active custom emoji; deactivated ones keep their image. */
export const realmEmojiAdded = defineEvent('realm_emoji.added', realmEmojiChange);
export const realmEmojiDeactivated = defineEvent('realm_emoji.deactivated', realmEmojiChange);
