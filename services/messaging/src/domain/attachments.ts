import { randomBytes } from 'node:crypto';
import { ConfabError, invalid } from '@confab/errors';
import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import type { AttachmentUnit, AttachmentWithMessages } from './channel-store.js';
import type { UploadedFile } from './storage.js';
import type { MessagingStore } from './store.js';
import { canAccessHistory } from './channel-access.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import type { Attachment, StoredMessage } from './types.js';

type Meta = { realmId: number; requestId: string | null };

const ms = (date: Date) => date.getTime();

function toRecord(a: AttachmentWithMessages) {
  return {
    id: a.id,
    name: a.fileName,
    path_id: a.pathId,
    size: a.size,
    create_time: ms(a.createTime),
    messages: a.messages.map((m) => ({ id: m.id, date_sent: ms(m.dateSent) })),
  };
}

async function changeEvent(
  attachments: AttachmentUnit,
  contract: typeof contracts.attachmentAdded,
  attachment: Attachment,
  meta: Meta,
): Promise<OutboxRecord> {
  const [full] = await attachments.withMessages([attachment]);
  return outboxRecord(
    contract,
    {
      user_id: attachment.ownerId,
      attachment: toRecord(full!),
      upload_space_used: await attachments.spaceUsed(attachment.ownerId),
    },
    meta,
  );
}

/** Links a new message to the uploads it refers to (Zulip's do_claim_attachments). */
export async function claimAttachments(
  store: Pick<MessagingStore, 'attachments'>,
  attachments: readonly Attachment[],
  message: StoredMessage,
  meta: Meta,
): Promise<OutboxRecord[]> {
  await store.attachments.link(
    attachments.map((a) => a.id),
    message.id,
  );
  const events: OutboxRecord[] = [];
  for (const attachment of attachments)
    events.push(await changeEvent(store.attachments, contracts.attachmentUpdated, attachment, meta));
  return events;
}

/**
 * After an edit changed a message's content (Zulip's check_attachment_reference_change): the uploads the new content
 * refers to are claimed by the message, those it no longer refers to are unlinked from it (their files stay). The
 * sender's uploads that no message refers to any more come back as `detached_uploads`, for the client to offer
 * deleting them; until then they are the unclaimed uploads the periodic cleanup removes.
 */
export async function updateAttachmentReferences(
  domain: Domain,
  actor: Actor,
  message: Pick<StoredMessage, 'id' | 'senderId'>,
  linkedPaths: readonly string[],
): Promise<ReturnType<typeof toRecord>[]> {
  const before = await domain.attachments.ofMessage(message.id);
  const wanted = new Set(linkedPaths);
  const had = new Set(before.map((a) => a.pathId));
  const removed = before.filter((a) => !wanted.has(a.pathId));
  const added = await domain.attachments.claimable(
    actor.realm.id,
    actor.user.id,
    [...wanted].filter((path) => !had.has(path)),
  );
  if (removed.length === 0 && added.length === 0) return [];
  const meta = { realmId: actor.realm.id, requestId: actor.requestId };
  return domain.db.write(actor.realm.id, async ({ attachments }) => {
    await attachments.unlink(
      removed.map((a) => a.id),
      message.id,
    );
    await attachments.link(
      added.map((a) => a.id),
      message.id,
    );
    await attachments.refreshHasAttachment(message.id);
    const events: OutboxRecord[] = [];
    for (const attachment of [...removed, ...added])
      events.push(await changeEvent(attachments, contracts.attachmentUpdated, attachment, meta));
    const orphans = await attachments.unreferenced(removed.map((a) => a.id));
    const detached = orphans.filter((a) => a.ownerId === message.senderId);
    const result = (await attachments.withMessages(detached)).map(toRecord);
    return { result, events };
  });
}

/** Unlinks deleted messages: uploads nothing refers to any more are deleted with their files after commit. */
export async function releaseAttachments(
  { attachments }: Pick<MessagingStore, 'attachments'>,
  messageIds: readonly number[],
  meta: Meta,
): Promise<{ events: OutboxRecord[]; files: string[] }> {
  const touched = await attachments.unlinkMessages(messageIds);
  if (touched.length === 0) return { events: [], files: [] };
  const orphans = await attachments.unreferenced(touched);
  const orphanIds = new Set(orphans.map((a) => a.id));
  const events: OutboxRecord[] = [];
  for (const id of touched.filter((t) => !orphanIds.has(t))) {
    const attachment = await attachments.byId(id);
    if (attachment) events.push(await changeEvent(attachments, contracts.attachmentUpdated, attachment, meta));
  }
  await attachments.delete(orphans.map((a) => a.id));
  for (const attachment of orphans) {
    events.push(
      outboxRecord(
        contracts.attachmentRemoved,
        {
          user_id: attachment.ownerId,
          attachment_id: attachment.id,
          upload_space_used: await attachments.spaceUsed(attachment.ownerId),
        },
        meta,
      ),
    );
  }
  return { events, files: orphans.map((a) => a.pathId) };
}

/** Deletes stored files after the rows are gone; a failure only leaves an orphan file behind. */
export async function deleteFiles(domain: Domain, pathIds: readonly string[]): Promise<void> {
  for (const pathId of pathIds) {
    await domain.files
      .delete(pathId)
      .catch((err: unknown) => domain.logger.warn({ err, path_id: pathId }, 'deleting an upload failed'));
  }
}

/** Zulip's sanitize_name: a safe file name that keeps letters, digits, dots, dashes and underscores. */
export function sanitizeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}._\- ]/gu, '')
    .trim()
    .replace(/[\s-]+/g, '-')
    .replace(/^[.]+/, '');
  return cleaned === '' ? 'uploaded-file' : cleaned.slice(0, 200);
}

/** POST /user_uploads: stores one file and records it as an unclaimed attachment. */
export async function uploadFile(
  domain: Domain,
  actor: Actor,
  files: readonly UploadedFile[],
): Promise<{ uri: string; url: string; filename: string }> {
  if (files.length === 0) throw invalid('You must specify a file to upload');
  if (files.length > 1) throw invalid('You may only upload one file at a time');
  const file = files[0]!;
  if (file.data.length > domain.limits.maxFileBytes) {
    throw invalid(
      `Uploaded file is larger than the allowed limit of ${Math.floor(domain.limits.maxFileBytes / 1024 / 1024)} MiB`,
    );
  }
  const fileName = file.filename.replaceAll('\u0000', '').slice(0, 255) || 'uploaded-file';
  const pathId = `${actor.realm.id}/${randomBytes(12).toString('base64url')}/${sanitizeFileName(fileName)}`;
  await domain.files.put(pathId, file.data, file.mimeType);
  await domain.db.write(actor.realm.id, async ({ attachments }) => {
    const attachment = await attachments.create({
      realmId: actor.realm.id,
      ownerId: actor.user.id,
      fileName,
      pathId,
      size: file.data.length,
      contentType: file.mimeType,
    });
    return {
      result: attachment,
      events: [
        await changeEvent(attachments, contracts.attachmentAdded, attachment, {
          realmId: actor.realm.id,
          requestId: actor.requestId,
        }),
      ],
    };
  });
  const url = `/user_uploads/${pathId}`;
  return { uri: url, url, filename: fileName };
}

/** GET /attachments. */
export async function listAttachments(domain: Domain, actor: Actor) {
  const attachments = await domain.attachments.ofOwner(actor.user.id);
  return {
    attachments: attachments.map(toRecord),
    upload_space_used: await domain.attachments.spaceUsed(actor.user.id),
  };
}

/** DELETE /attachments/{attachment_id}: only the owner may delete an upload. */
export async function deleteAttachment(domain: Domain, actor: Actor, attachmentId: number): Promise<void> {
  const attachment = await domain.attachments.byId(attachmentId);
  if (!attachment || attachment.ownerId !== actor.user.id || attachment.realmId !== actor.realm.id)
    throw invalid('Invalid attachment');
  await domain.db.write(actor.realm.id, async ({ attachments }) => {
    await attachments.delete([attachment.id]);
    const event = outboxRecord(
      contracts.attachmentRemoved,
      {
        user_id: actor.user.id,
        attachment_id: attachment.id,
        upload_space_used: await attachments.spaceUsed(actor.user.id),
      },
      { realmId: actor.realm.id, requestId: actor.requestId },
    );
    return { result: undefined, events: [event] };
  });
  await deleteFiles(domain, [attachment.pathId]);
}

/** Whether the user may download an upload: its owner, or someone who can read a message that links it. */
async function canDownload(domain: Domain, actor: Actor, attachment: Attachment): Promise<boolean> {
  if (attachment.realmId !== actor.realm.id) return false;
  if (attachment.ownerId === actor.user.id) return true;
  const [full] = await domain.attachments.withMessages([attachment]);
  for (const { id } of full?.messages ?? []) {
    const message = await domain.messages.messageById(id);
    if (!message) continue;
    if ((await domain.messages.userMessageFlags(actor.user.id, id)) !== null) return true;
    if (message.channelId !== null) {
      const channel = await domain.directory.channel(message.channelId);
      const sub = channel ? await domain.channels.subscription(actor.user.id, channel.id) : null;
      if (channel && canAccessHistory(actor, channel, sub?.active ? sub : null)) return true;
    }
  }
  return false;
}

const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|avif|bmp)|video\/|audio\/|application\/pdf$|text\/plain$)/;

/** The upload at `pathId`, when the caller may see it (Zulip's validate_attachment_request). */
export async function accessUpload(domain: Domain, actor: Actor, pathId: string): Promise<Attachment> {
  const attachment = await domain.attachments.byPathId(pathId);
  if (!attachment) throw new ConfabError('File not found', { status: 404 });
  if (!(await canDownload(domain, actor, attachment))) {
    throw new ConfabError('You are not authorized to view this file.', { status: 403 });
  }
  return attachment;
}

/** An upload's bytes and the headers it is served with. */
export async function readUpload(
  domain: Domain,
  attachment: Attachment,
): Promise<{ data: Buffer; contentType: string; disposition: string }> {
  const stored = await domain.files.get(attachment.pathId);
  if (!stored) throw new ConfabError('File not found', { status: 404 });
  const chunks: Buffer[] = [];
  for await (const chunk of stored.stream) chunks.push(chunk as Buffer);
  const kind = INLINE_TYPES.test(attachment.contentType) ? 'inline' : 'attachment';
  const encoded = encodeURIComponent(attachment.fileName);
  return {
    data: Buffer.concat(chunks),
    contentType: attachment.contentType,
    disposition: `${kind}; filename*=UTF-8''${encoded}`,
  };
}

/** GET /user_uploads/{path_id}: the file, when the caller may see it. */
export async function downloadFile(
  domain: Domain,
  actor: Actor,
  pathId: string,
): Promise<{ data: Buffer; contentType: string; disposition: string }> {
  return readUpload(domain, await accessUpload(domain, actor, pathId));
}

/** The periodic cleanup: uploads no message claimed within the grace period are deleted. */
export async function deleteUnclaimedUploads(domain: Domain, olderThan: Date): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = await domain.attachments.unclaimedBefore(olderThan, 100);
    if (batch.length === 0) return deleted;
    // A batch spans organizations: the cleanup's own unit of work (MessagingDatabase.writeAcross).
    const removed = await domain.db.writeAcross(async ({ attachments }) => {
      const still = await attachments.unreferenced(batch.map((a) => a.id));
      await attachments.delete(still.map((a) => a.id));
      const events: OutboxRecord[] = [];
      for (const a of still) {
        events.push(
          outboxRecord(
            contracts.attachmentRemoved,
            {
              user_id: a.ownerId,
              attachment_id: a.id,
              upload_space_used: await attachments.spaceUsed(a.ownerId),
            },
            { realmId: a.realmId, requestId: null },
          ),
        );
      }
      return { result: still, events };
    });
    await deleteFiles(
      domain,
      removed.map((a) => a.pathId),
    );
    deleted += removed.length;
    // Uploads claimed meanwhile stay; stop rather than loop on them.
    if (removed.length === 0) return deleted;
  }
}
