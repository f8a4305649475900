import type { Realm, User } from './types.js';

/** What rendering a message yields besides its HTML. */
export interface Rendered {
  html: string;
  /** Users mentioned non-silently; they get the `mentioned` flag. */
  mentionedUserIds: number[];
  /** Groups mentioned non-silently; their members get the `mentioned` flag. */
  mentionedGroupIds: number[];
  wildcards: { channel: boolean; topic: boolean };
  isMeMessage: boolean;
  /** Path ids of this organization's uploads that the message links. */
  linkedUploadPaths: string[];
  hasLink: boolean;
  hasImage: boolean;
}

/** Zulip-flavoured Markdown to HTML, with the organization's users, groups and channels resolved. */
export interface Renderer {
  render(realm: Realm, content: string, sender: User | null): Promise<Rendered>;
}
