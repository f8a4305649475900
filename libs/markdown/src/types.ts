/** A user that a mention may resolve to (looked up by the caller from `extractReferences`). */
export interface MentionableUser {
  id: number;
  fullName: string;
  /** Mentions of deactivated users render, but silently (Zulip behaviour); defaults to true. */
  isActive?: boolean;
}

/** A user group that a `@*group*` mention may resolve to. */
export interface MentionableGroup {
  id: number;
  name: string;
  /** Shown instead of `name`, e.g. "everyone" for the system group `role:everyone`. */
  displayName?: string;
  /** Mentions of deactivated groups render, but silently; defaults to false. */
  deactivated?: boolean;
}

/** A channel that `#**channel**` and `#**channel>topic**` links may resolve to. */
export interface LinkableChannel {
  id: number;
  name: string;
}

/** A realm's custom emoji, keyed by its name in `RenderContext.realmEmoji`. */
export interface RealmEmoji {
  /** The realm emoji's id; reactions use it as `emoji_code`. */
  id: string;
  /** Image URL, absolute or relative to the realm. */
  sourceUrl: string;
  deactivated?: boolean;
}

/** Everything the renderer needs from the database; build it from `extractReferences`. */
export interface RenderContext {
  /** The realm's base URL without trailing slash, e.g. `https://chat.example.com`; same-realm links become relative. */
  realmUrl?: string;
  users?: readonly MentionableUser[];
  groups?: readonly MentionableGroup[];
  channels?: readonly LinkableChannel[];
  /** Latest message id of a linked topic, keyed by `topicKey(channelName, topic)`; adds Zulip's `/with/<id>` operand. */
  topicMessageIds?: ReadonlyMap<string, number>;
  /** Active and deactivated custom emoji by name; deactivated ones are not rendered. */
  realmEmoji?: ReadonlyMap<string, RealmEmoji> | Readonly<Record<string, RealmEmoji>>;
  /** Display name of the empty topic in topic links; Zulip's default is "general chat". */
  emptyTopicDisplayName?: string;
  /** The sender's "translate emoticons" setting: `:)` becomes an emoji. */
  translateEmoticons?: boolean;
  /** The organization's linkifiers, in the order they apply (Zulip's realm_linkifiers). */
  linkifiers?: readonly { pattern: string; urlTemplate: string }[];
  /** The realm's default language for fences without one. */
  defaultCodeBlockLanguage?: string | null;
  /** The organization's `inline_image_preview`: image links and YouTube links get an inline preview. Default true. */
  inlineImagePreview?: boolean;
  /** The organization's `inline_url_embed_preview`: links to other sites get a website preview. Default false. */
  inlineUrlEmbedPreview?: boolean;
  /** A bot sent the message: Zulip previews no website for bots. */
  sentByBot?: boolean;
  /**
   * Website previews fetched for the message's links after it was sent (Zulip's url_embed_data), by URL; `null`:
   * fetched, nothing to show. A link without an entry is reported in `linksForPreview`.
   */
  urlEmbedData?: ReadonlyMap<string, UrlEmbedData | null>;
  /**
   * The image proxy (Zulip's camo): the URL images of other hosts are shown from. Without it, inline images use
   * Zulip's `/thumbnail?url=` form and other images their own URL.
   */
  externalImageUrl?: (url: string) => string;
}

/** What a website preview shows (Zulip's UrlEmbedData): from its Open Graph and other meta tags. */
export interface UrlEmbedData {
  title: string | null;
  description: string | null;
  /** Absolute URL of the page's image; a page without one gets no preview. */
  image: string | null;
}

/** Names and ids that a message refers to, found without any database access. */
export interface MessageReferences {
  /** Names from `@**Full Name**`; match them case-insensitively against full names. */
  userNames: string[];
  /** Ids from `@**Name|123**` and `@**|123**`. */
  userIds: number[];
  /** Names from `@*group*`. */
  groupNames: string[];
  /** Names from `#**channel**`, `#**channel>topic**` and message links. */
  channelNames: string[];
  /** Topics from `#**channel>topic**`, for `RenderContext.topicMessageIds`. */
  topics: { channel: string; topic: string }[];
  /** Names from `:name:`, for looking up realm emoji (which take precedence over built-in names). */
  emojiNames: string[];
  /** True when a non-silent wildcard mention (`@**all**`, `@**topic**`, ...) appears. */
  hasWildcardMention: boolean;
}

/** What a rendered message carries besides its HTML. */
export interface RenderResult {
  html: string;
  /** Users mentioned non-silently (and active); they get the `mentioned` flag. */
  mentionedUserIds: number[];
  /** Users mentioned with `@_**...**`, inside a quote, or while deactivated. */
  silentlyMentionedUserIds: number[];
  /** Groups mentioned non-silently (and not deactivated). */
  mentionedGroupIds: number[];
  /** The broadest wildcard mention: channel-wide (`all`, `everyone`, `channel`, `stream`) beats `topic`. */
  wildcard: 'channel' | 'topic' | null;
  /** Both wildcard kinds, since Zulip flags them separately. */
  wildcards: { channel: boolean; topic: boolean };
  /** `/me` status messages. */
  isMeMessage: boolean;
  /** Path ids of linked `/user_uploads/<path>` files on this realm, for attachment bookkeeping. */
  linkedUploadPaths: string[];
  hasLink: boolean;
  /** The message shows an inline image or YouTube preview (Zulip's has_image). */
  hasImage: boolean;
  /** The message links at least one upload of this realm. */
  hasAttachment: boolean;
  /**
   * Links whose website preview is to be fetched after the send (Zulip's links_for_preview), in order: only when
   * `inlineUrlEmbedPreview` is on, the sender is no bot, and `urlEmbedData` has no entry for them.
   */
  linksForPreview: string[];
}
