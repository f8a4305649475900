import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/** A left-sidebar navigation view (the settings service owns them); `name` is null for built-in views. */
export const navigationViewRecord = z.object({
  fragment: z.string(),
  is_pinned: z.boolean(),
  name: z.string().nullable(),
});
export type NavigationViewRecord = z.infer<typeof navigationViewRecord>;

const owner = { user_id: z.number().int(), realm_id: z.number().int() };

export const navigationViewAdded = defineEvent(
  'navigation_view.added',
  z.object({ ...owner, navigation_view: navigationViewRecord }),
);

/** `data` holds only the fields the request changed, as Zulip's `navigation_view` update event does. */
export const navigationViewUpdated = defineEvent(
  'navigation_view.updated',
  z.object({
    ...owner,
    fragment: z.string(),
    data: z.object({ is_pinned: z.boolean().optional(), name: z.string().optional() }),
  }),
);

export const navigationViewRemoved = defineEvent(
  'navigation_view.removed',
  z.object({ ...owner, fragment: z.string() }),
);
