export { extractReferences, prepareContext, renderMarkdown, renderMessage, type PreparedContext } from './render.js';
export { topicKey } from './context.js';
export { allEmoji, emojiByCode, emojiByName, type EmojiInfo } from './emoji/catalog.js';
export {
  checkReactionEmoji,
  resolveReactionEmoji,
  REACTION_TYPES,
  SERVICE_EXTRA_EMOJI,
  type ReactionCheck,
  type ReactionType,
  type RealmEmojiRecord,
} from './emoji/reactions.js';
export { messageLinkSyntax, sanitizeUrl, topicLinkSyntax, channelLinkSyntax, unusedFence } from './urls.js';
export type * from './types.js';
export { compileLinkifier, LinkifierError, topicLinks, type Linkifier } from './linkifiers.js';
export { isValidTemplate, templateVariables } from './uri-template.js';
export { vimeoId, youtubeId } from './core/inline-images.js';
