import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/**
 * A message has links whose website preview is to be fetched (Zulip's `embed_links` queue event): published only by
 * sends and content edits whose rendering reported links_for_preview (the organization's inline_url_embed_preview is
 * on, the sender is no bot), completed with the message id by the send statement. The messaging worker fetches the
 * pages, re-renders the message with them and tells its readers with a rendering-only message.updated
 * (docs/architecture.md, "Link previews").
 */
export const linkPreviewsRequested = defineEvent(
  'link_previews.requested',
  z.object({
    message_id: z.number().int(),
    realm_id: z.number().int(),
    /** The content the links were found in: a preview of content edited since is not applied. */
    content: z.string(),
    urls: z.array(z.string()).min(1),
  }),
);
