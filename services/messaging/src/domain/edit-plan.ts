import type { ContentChange } from './edit-store.js';
import type { Rendered } from './render.js';
import type { Channel, StoredMessage } from './types.js';

/** How far an edit of the topic or channel reaches (Zulip's propagate_mode). */
export type PropagateMode = 'change_one' | 'change_later' | 'change_all';

/** An edit that passed every check (message-edit.ts): what it changes. */
export interface EditPlan {
  message: StoredMessage;
  origChannel: Channel | null;
  propagateMode: PropagateMode;
  /** The new topic, when it changes. */
  topic?: string;
  /** The new channel, when it changes. */
  targetChannel?: Channel;
  content?: {
    change: ContentChange;
    rendered: Rendered;
    mentioned: number[];
    topicParticipants: number[];
    /** Users whose alert words the new content has. */
    alerted: number[];
  };
}

/** What a committed edit changed: the messages, and whether a move took everything of the topic the mover sees. */
export interface EditOutcome {
  ids: number[];
  /** Zulip's moved_all_visible_messages: true for change_all, else whether the old topic kept none the mover sees. */
  movedAll: boolean;
}
