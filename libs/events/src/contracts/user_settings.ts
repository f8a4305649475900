import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/** A personal setting's value (PATCH /settings). */
export const settingValue = z.union([z.boolean(), z.number(), z.string(), z.null()]);

/**
 * A user's personal settings changed (the settings service owns them). `settings` is the whole set after the
 * change, so a consumer that missed earlier events still ends up right; `changed` names what this event changed.
 */
export const userSettingsChanged = defineEvent(
  'user_settings.changed',
  z.object({
    user_id: z.number().int(),
    realm_id: z.number().int(),
    changed: z.array(z.string()),
    settings: z.record(z.string(), settingValue),
    /** The user's API email, for Zulip's deprecated per-setting events (absent in events from before). */
    email: z.string().optional(),
    /** The name of `settings.default_language` in that language (Zulip's language_name). */
    language_name: z.string().optional(),
  }),
);
