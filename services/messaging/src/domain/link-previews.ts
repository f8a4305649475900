import { contracts, outboxRecord, type PayloadOf } from '@confab/events';
import type { Domain } from './context.js';
import { audience } from './message-edit-commit.js';
import type { LinkEmbed } from './render.js';

/**
 * Link previews (Zulip's embed_links worker, zerver/worker/embed_links.py, and do_update_embedded_data): after the
 * send, the messaging worker fetches the pages a message links, renders the message again with what they say, stores
 * the new rendering and tells every reader with a rendering-only update_message. docs/architecture.md, "Link previews".
 */

/** The preview of one URL (cached per URL by the adapter); null when the page has none or could not be fetched. */
export interface LinkPreviewPorts {
  embedData(url: string): Promise<LinkEmbed | null>;
}

export type LinkPreviewJob = PayloadOf<typeof contracts.linkPreviewsRequested>;

/**
 * `applied`: the message shows its previews now; `unchanged`: they add nothing to its rendering; `stale`: the message
 * is gone, or its content changed since (an edit asks for its own previews).
 */
export type LinkPreviewOutcome = 'applied' | 'unchanged' | 'stale';

export async function applyLinkPreviews(
  domain: Domain,
  ports: LinkPreviewPorts,
  job: LinkPreviewJob,
): Promise<LinkPreviewOutcome> {
  const realm = await domain.directory.realm(job.realm_id);
  const message = await domain.messages.messageById(job.message_id);
  if (!realm || !message || message.content !== job.content) return 'stale';
  const sender = await domain.directory.user(message.senderId);
  if (!sender) return 'stale';
  const urlEmbedData = new Map<string, LinkEmbed | null>();
  for (const url of job.urls) urlEmbedData.set(url, await ports.embedData(url));
  const rendered = await domain.renderer.render(realm, job.content, sender, { urlEmbedData });
  const channel = message.channelId === null ? null : await domain.directory.channel(message.channelId);
  return domain.db.writeSql(realm.id, async ({ edits: unit }) => {
    const locked = await unit.lock(job.message_id);
    if (!locked || locked.content !== job.content) return { result: 'stale' as const, events: [] };
    if (locked.renderedContent === rendered.html) return { result: 'unchanged' as const, events: [] };
    await unit.setRendering(job.message_id, rendered.html, rendered.hasImage);
    const flags = await audience(domain, realm.id, { origChannel: channel }, await unit.rows(job.message_id));
    const payload: PayloadOf<typeof contracts.messageUpdated> = {
      user_id: null,
      edit_timestamp: Math.floor(Date.now() / 1000),
      message_id: job.message_id,
      message_ids: [job.message_id],
      rendering_only: true,
      flags,
      content: job.content,
      rendered_content: rendered.html,
    };
    const meta = { realmId: realm.id, requestId: `link-previews-${job.message_id}` };
    return { result: 'applied' as const, events: [outboxRecord(contracts.messageUpdated, payload, meta)] };
  });
}
