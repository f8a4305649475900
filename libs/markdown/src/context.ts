import { compiledLinkifiers, type CompiledLinkifier } from './linkifiers.js';
import type {
  LinkableChannel,
  MentionableGroup,
  MentionableUser,
  RealmEmoji,
  RenderContext,
  UrlEmbedData,
} from './types.js';

/** The render context indexed for the lookups the parser makes. */
export interface ResolvedContext {
  realmUrl: string | undefined;
  usersById: Map<number, MentionableUser>;
  usersByName: Map<string, MentionableUser>;
  groupsByName: Map<string, MentionableGroup>;
  channelsByName: Map<string, LinkableChannel>;
  topicMessageIds: ReadonlyMap<string, number>;
  realmEmoji: Map<string, RealmEmoji>;
  emptyTopicDisplayName: string;
  translateEmoticons: boolean;
  defaultCodeBlockLanguage: string | undefined;
  linkifiers: CompiledLinkifier[];
  /** The realm's host (`chat.example.com`): links there are the organization's own. */
  realmHost: string;
  inlineImagePreview: boolean;
  inlineUrlEmbedPreview: boolean;
  sentByBot: boolean;
  urlEmbedData: ReadonlyMap<string, UrlEmbedData | null>;
  externalImageUrl: ((url: string) => string) | undefined;
}

/** Key of `RenderContext.topicMessageIds`. */
export function topicKey(channelName: string, topic: string): string {
  return `${channelName}\u0000${topic}`;
}

export function resolveContext(context: RenderContext = {}): ResolvedContext {
  const usersById = new Map<number, MentionableUser>();
  const usersByName = new Map<string, MentionableUser>();
  for (const user of context.users ?? []) {
    usersById.set(user.id, user);
    // Full names match case-insensitively; with duplicates the first one wins (clients disambiguate with |id).
    const key = user.fullName.toLowerCase();
    if (!usersByName.has(key)) usersByName.set(key, user);
  }
  const groupsByName = new Map<string, MentionableGroup>();
  for (const group of context.groups ?? []) groupsByName.set(group.name.toLowerCase(), group);
  const channelsByName = new Map<string, LinkableChannel>();
  for (const channel of context.channels ?? []) channelsByName.set(channel.name, channel);
  const emoji = context.realmEmoji;
  const realmEmoji = new Map<string, RealmEmoji>(
    emoji === undefined ? [] : emoji instanceof Map ? emoji : Object.entries(emoji),
  );
  let realmHost: string;
  try {
    realmHost = context.realmUrl ? new URL(context.realmUrl).host : '';
  } catch {
    realmHost = '';
  }
  return {
    realmUrl: context.realmUrl?.replace(/\/+$/, ''),
    usersById,
    usersByName,
    groupsByName,
    channelsByName,
    topicMessageIds: context.topicMessageIds ?? new Map(),
    realmEmoji,
    emptyTopicDisplayName: context.emptyTopicDisplayName ?? 'general chat',
    translateEmoticons: context.translateEmoticons ?? false,
    defaultCodeBlockLanguage: context.defaultCodeBlockLanguage ?? undefined,
    linkifiers: compiledLinkifiers(context.linkifiers ?? []),
    realmHost,
    inlineImagePreview: context.inlineImagePreview ?? true,
    inlineUrlEmbedPreview: context.inlineUrlEmbedPreview ?? false,
    sentByBot: context.sentByBot ?? false,
    urlEmbedData: context.urlEmbedData ?? new Map(),
    externalImageUrl: context.externalImageUrl,
  };
}
