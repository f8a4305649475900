import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/** A user's visibility policy for a topic changed: 0 none, 1 muted, 2 unmuted, 3 followed (Zulip's `user_topic`). */
export const userTopicChanged = defineEvent(
  'user_topic.changed',
  z.object({
    user_id: z.number().int(),
    stream_id: z.number().int(),
    topic_name: z.string(),
    /** Unix time in seconds. */
    last_updated: z.number().int(),
    visibility_policy: z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]),
  }),
);
