import { extractReferences, renderMessage, type MessageReferences, type RenderContext } from '@confab/markdown';
import type { ChannelsRepository } from '../repositories/channels.repository.js';
import type { Directory } from '../repositories/directory.js';
import type { ReadModelRepository } from '../repositories/readmodel.repository.js';
import type { Rendered, RenderOptions, Renderer } from '../domain/render.js';
import type { Realm, User } from '../domain/types.js';

/** Mentions and channel links start with these; custom emoji are written `:name:`. */
const MAY_REFER = /[@#]/;
const MAY_HAVE_EMOJI = /:[^\s:]+:/;

/**
 * The domain's Renderer (domain/render.ts), implemented with Zulip-flavoured Markdown (@confab/markdown) and this
 * organization's users, groups, channels and custom emoji resolved from this service's read models.
 */
export class MarkdownRenderer implements Renderer {
  constructor(
    private readonly readModel: ReadModelRepository,
    private readonly channels: ChannelsRepository,
    private readonly directory: Directory,
    /** The external image proxy (camo.ts): every image of another host is shown through it. */
    private readonly externalImageUrl?: (url: string) => string,
  ) {}

  private async context(realm: Realm, refs: MessageReferences, sender: User | null): Promise<RenderContext> {
    const context: RenderContext = { realmUrl: realm.url, emptyTopicDisplayName: realm.emptyTopicDisplayName };
    if (refs.userNames.length > 0 || refs.userIds.length > 0) {
      const users = [
        ...(await this.readModel.usersByFullNames(realm.id, refs.userNames)),
        ...(await this.readModel.usersByIds(realm.id, refs.userIds)),
      ];
      context.users = users.map((u) => ({ id: u.id, fullName: u.fullName, isActive: u.isActive }));
    }
    if (refs.groupNames.length > 0) {
      const wanted = new Set(refs.groupNames.map((n) => n.toLowerCase()));
      const groups = [...(await this.directory.groupsOf(realm.id)).values()].filter((g) =>
        wanted.has(g.name.toLowerCase()),
      );
      context.groups = groups.map((g) => ({
        id: g.id,
        name: g.name,
        deactivated: g.deactivated,
        ...(g.isSystemGroup ? { displayName: g.name.replace(/^role:/, '') } : {}),
      }));
    }
    if (refs.channelNames.length > 0) {
      const found = await this.channels.channelsByNames(realm.id, refs.channelNames);
      const subscribed = sender
        ? await this.channels.subscriptionsFor(
            sender.id,
            [...found.values()].map((c) => c.id),
          )
        : new Map();
      // Links to private channels resolve only for their subscribers.
      context.channels = [...found.values()]
        .filter((c) => !c.inviteOnly || subscribed.get(c.id)?.active)
        .map((c) => ({ id: c.id, name: c.name }));
    }
    return context;
  }

  async render(realm: Realm, content: string, sender: User | null, options: RenderOptions = {}): Promise<Rendered> {
    const refs: MessageReferences | null = MAY_REFER.test(content) ? extractReferences(content) : null;
    const context = refs
      ? await this.context(realm, refs, sender)
      : { realmUrl: realm.url, emptyTopicDisplayName: realm.emptyTopicDisplayName };
    if (MAY_HAVE_EMOJI.test(content)) {
      const emoji = await this.directory.realmEmoji(realm.id);
      if (emoji.byName.size > 0) {
        context.realmEmoji = new Map(
          [...emoji.byName].map(([name, e]) => [
            name,
            { id: e.id, sourceUrl: e.sourceUrl, deactivated: e.deactivated },
          ]),
        );
      }
    }
    const linkifiers = await this.directory.linkifiersOf(realm.id);
    if (linkifiers.length > 0) context.linkifiers = linkifiers;
    // Zulip renders what is no message (channel descriptions) with no_previews.
    context.inlineImagePreview = sender !== null && realm.inlineImagePreview;
    context.inlineUrlEmbedPreview = sender !== null && realm.inlineUrlEmbedPreview;
    context.sentByBot = sender?.isBot ?? false;
    if (options.urlEmbedData) context.urlEmbedData = options.urlEmbedData;
    if (this.externalImageUrl) context.externalImageUrl = this.externalImageUrl;
    const result = renderMessage(content, context);
    return {
      html: result.html,
      mentionedUserIds: result.mentionedUserIds,
      mentionedGroupIds: result.mentionedGroupIds,
      wildcards: result.wildcards,
      isMeMessage: result.isMeMessage,
      linkedUploadPaths: result.linkedUploadPaths,
      hasLink: result.hasLink,
      hasImage: result.hasImage,
      linksForPreview: result.linksForPreview,
    };
  }
}
