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
  /** Links whose website preview is still to be fetched (Zulip's links_for_preview; docs/architecture.md). */
  linksForPreview: string[];
}

/** A website preview as the worker fetched it (Zulip's UrlEmbedData); null: the page has nothing to show. */
export interface LinkEmbed {
  title: string | null;
  description: string | null;
  image: string | null;
}

export interface RenderOptions {
  /** Previews fetched after the send, by URL (Zulip's url_embed_data). */
  urlEmbedData?: ReadonlyMap<string, LinkEmbed | null>;
}

/** Zulip-flavoured Markdown to HTML, with the organization's users, groups and channels resolved. */
export interface Renderer {
  /** `sender` null: no message (a channel description), which gets no previews. */
  render(realm: Realm, content: string, sender: User | null, options?: RenderOptions): Promise<Rendered>;
}
