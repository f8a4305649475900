import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/**
 * Organization content the messaging service owns and every member's client keeps: default channels, channel
 * folders, linkifiers and code playgrounds (Zulip's default_streams, channel_folder, realm_linkifiers and
 * realm_playgrounds events).
 */

const id = z.number().int();
const realm = { realm_id: id };

/** The organization's default channels after a change, by id. */
export const defaultChannelsChanged = defineEvent(
  'default_streams.changed',
  z.object({ ...realm, default_streams: z.array(id) }),
);

/** A channel folder as GET /channel_folders lists it. */
export const channelFolderRecord = z.object({
  id,
  name: z.string(),
  description: z.string(),
  rendered_description: z.string(),
  creator_id: id.nullable(),
  /** Unix time in seconds. */
  date_created: id,
  is_archived: z.boolean(),
  order: id,
});
export type ChannelFolderRecord = z.infer<typeof channelFolderRecord>;

export const channelFolderAdded = defineEvent(
  'channel_folder.added',
  z.object({ ...realm, channel_folder: channelFolderRecord }),
);
/** The changed fields only (name, description with rendered_description, is_archived). */
export const channelFolderUpdated = defineEvent(
  'channel_folder.updated',
  z.object({ ...realm, channel_folder_id: id, data: z.record(z.string(), z.unknown()) }),
);
export const channelFoldersReordered = defineEvent(
  'channel_folder.reordered',
  z.object({ ...realm, order: z.array(id) }),
);

/** A linkifier as GET /realm/linkifiers lists it. */
export const linkifierRecord = z.object({ id, pattern: z.string(), url_template: z.string() });
export type LinkifierRecord = z.infer<typeof linkifierRecord>;

/** Every linkifier of the organization after a change, in the order they apply. */
export const linkifiersChanged = defineEvent(
  'linkifiers.changed',
  z.object({ ...realm, realm_linkifiers: z.array(linkifierRecord) }),
);

/** A code playground as the initial state lists it. */
export const playgroundRecord = z.object({
  id,
  name: z.string(),
  pygments_language: z.string(),
  url_template: z.string(),
});
export type PlaygroundRecord = z.infer<typeof playgroundRecord>;

export const playgroundsChanged = defineEvent(
  'playgrounds.changed',
  z.object({ ...realm, realm_playgrounds: z.array(playgroundRecord) }),
);
