import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/** A user's alert words after a change: messages containing one get the `has_alert_word` flag for them. */
export const alertWordsChanged = defineEvent(
  'alert_words.changed',
  z.object({ user_id: z.number().int(), realm_id: z.number().int(), alert_words: z.array(z.string()) }),
);
