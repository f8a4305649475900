import type { Attachment } from '../domain/types.js';
import { storable, validId, type Prisma, type Tx } from './prisma.js';
import type { Store } from './store.js';
import type { AttachmentStore, AttachmentUnit, AttachmentWithMessages } from '../domain/channel-store.js';

export type { AttachmentWithMessages } from '../domain/channel-store.js';

type AttachmentRow = Prisma.AttachmentGetPayload<object>;

function toAttachment(row: AttachmentRow): Attachment {
  return {
    id: row.id,
    realmId: row.realmId,
    ownerId: row.ownerId,
    fileName: row.fileName,
    pathId: row.pathId,
    size: row.size,
    contentType: row.contentType,
    createTime: row.createTime,
  };
}

/** Uploaded files and which messages refer to them. */
export class AttachmentsRepository implements AttachmentStore {
  constructor(private readonly store: Store) {}

  /** This part of a unit of work (a MessagingStore part, repositories/messaging-database.ts), joined to `tx`. */
  in(tx: Tx): AttachmentUnit {
    return {
      create: (data) => this.create(data, tx),
      byId: (id) => this.byId(id, tx),
      link: (attachmentIds, messageId) => this.link(tx, attachmentIds, messageId),
      unlink: (attachmentIds, messageId) => this.unlink(tx, attachmentIds, messageId),
      refreshHasAttachment: (messageId) => this.refreshHasAttachment(tx, messageId),
      unlinkMessages: (messageIds) => this.unlinkMessages(tx, messageIds),
      unreferenced: (attachmentIds) => this.unreferenced(tx, attachmentIds),
      delete: (ids) => this.delete(tx, ids),
      withMessages: (attachments) => this.withMessages(attachments, tx),
      spaceUsed: (ownerId) => this.spaceUsed(ownerId, tx),
    };
  }

  private get db() {
    return this.store.db;
  }

  async create(data: Omit<Attachment, 'id' | 'createTime'>, tx?: Tx): Promise<Attachment> {
    return toAttachment(await (tx ?? this.db).attachment.create({ data }));
  }

  async byId(id: number, tx?: Tx): Promise<Attachment | null> {
    if (!validId(id)) return null;
    const row = await (tx ?? this.db).attachment.findUnique({ where: { id } });
    return row ? toAttachment(row) : null;
  }

  async byPathId(pathId: string): Promise<Attachment | null> {
    if (!storable(pathId)) return null;
    const row = await this.db.attachment.findUnique({ where: { pathId } });
    return row ? toAttachment(row) : null;
  }

  /**
   * Uploads a new message may claim: the sender's own, or ones of the organization that a message already refers
   * to (a file shared before can be linked again).
   */
  async claimable(realmId: number, userId: number, pathIds: readonly string[]): Promise<Attachment[]> {
    if (pathIds.length === 0) return [];
    const rows = await this.db.$queryRawUnsafe<{ id: number }[]>(
      `SELECT a.id FROM attachments a
        WHERE a.realm_id = $1 AND a.path_id = ANY($3::text[])
          AND (a.owner_id = $2 OR EXISTS (SELECT 1 FROM attachment_messages am WHERE am.attachment_id = a.id))`,
      realmId,
      userId,
      [...new Set(pathIds.filter(storable))],
    );
    if (rows.length === 0) return [];
    const found = await this.db.attachment.findMany({ where: { id: { in: rows.map((r) => r.id) } } });
    return found.map(toAttachment);
  }

  async link(tx: Tx, attachmentIds: readonly number[], messageId: number): Promise<void> {
    await tx.attachmentMessage.createMany({
      data: attachmentIds.map((attachmentId) => ({ attachmentId, messageId })),
      skipDuplicates: true,
    });
  }

  /** The uploads a message refers to. */
  async ofMessage(messageId: number, tx?: Tx): Promise<Attachment[]> {
    const db = tx ?? this.db;
    const links = await db.attachmentMessage.findMany({ where: { messageId }, select: { attachmentId: true } });
    if (links.length === 0) return [];
    const rows = await db.attachment.findMany({
      where: { id: { in: links.map((l) => l.attachmentId) } },
      orderBy: { id: 'asc' },
    });
    return rows.map(toAttachment);
  }

  /** Removes the links of one message to these uploads. */
  async unlink(tx: Tx, attachmentIds: readonly number[], messageId: number): Promise<void> {
    if (attachmentIds.length === 0) return;
    await tx.attachmentMessage.deleteMany({ where: { messageId, attachmentId: { in: [...attachmentIds] } } });
  }

  /** Sets the message's has_attachment from the links it has now. */
  async refreshHasAttachment(tx: Tx, messageId: number): Promise<boolean> {
    const rows = await tx.$queryRawUnsafe<{ has: boolean }[]>(
      `UPDATE messages SET has_attachment = EXISTS (SELECT 1 FROM attachment_messages WHERE message_id = $1)
        WHERE id = $1 RETURNING has_attachment AS has`,
      messageId,
    );
    return rows[0]?.has ?? false;
  }

  /** Removes the links of deleted messages; returns the attachments they referred to. */
  async unlinkMessages(tx: Tx, messageIds: readonly number[]): Promise<number[]> {
    if (messageIds.length === 0) return [];
    const rows = await tx.$queryRawUnsafe<{ attachment_id: number }[]>(
      'DELETE FROM attachment_messages WHERE message_id = ANY($1::int[]) RETURNING attachment_id',
      [...messageIds],
    );
    return [...new Set(rows.map((r) => r.attachment_id))];
  }

  /** Which of these attachments no message refers to any more. */
  async unreferenced(tx: Tx, attachmentIds: readonly number[]): Promise<Attachment[]> {
    if (attachmentIds.length === 0) return [];
    const rows = await tx.$queryRawUnsafe<{ id: number }[]>(
      `SELECT a.id FROM attachments a WHERE a.id = ANY($1::int[])
         AND NOT EXISTS (SELECT 1 FROM attachment_messages am WHERE am.attachment_id = a.id)`,
      [...attachmentIds],
    );
    const found = await tx.attachment.findMany({ where: { id: { in: rows.map((r) => r.id) } } });
    return found.map(toAttachment);
  }

  /** Unreferenced uploads created before `before` (for the periodic cleanup). */
  async unclaimedBefore(before: Date, limit: number): Promise<Attachment[]> {
    const rows = await this.db.$queryRawUnsafe<{ id: number }[]>(
      `SELECT a.id FROM attachments a WHERE a.create_time < $1
         AND NOT EXISTS (SELECT 1 FROM attachment_messages am WHERE am.attachment_id = a.id)
       ORDER BY a.id LIMIT $2`,
      before,
      limit,
    );
    if (rows.length === 0) return [];
    const found = await this.db.attachment.findMany({ where: { id: { in: rows.map((r) => r.id) } } });
    return found.map(toAttachment);
  }

  async delete(tx: Tx, ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await tx.attachmentMessage.deleteMany({ where: { attachmentId: { in: [...ids] } } });
    await tx.attachment.deleteMany({ where: { id: { in: [...ids] } } });
  }

  /** The owner's uploads, newest first, with the messages that refer to them. */
  async ofOwner(ownerId: number, tx?: Tx): Promise<AttachmentWithMessages[]> {
    const db = tx ?? this.db;
    const rows = await db.attachment.findMany({ where: { ownerId }, orderBy: { id: 'desc' } });
    return this.withMessages(rows.map(toAttachment), tx);
  }

  async withMessages(attachments: readonly Attachment[], tx?: Tx): Promise<AttachmentWithMessages[]> {
    if (attachments.length === 0) return [];
    const links = await (tx ?? this.db).$queryRawUnsafe<{ attachment_id: number; id: number; date_sent: Date }[]>(
      `SELECT am.attachment_id, m.id, m.date_sent FROM attachment_messages am JOIN messages m ON m.id = am.message_id
        WHERE am.attachment_id = ANY($1::int[]) ORDER BY m.id`,
      attachments.map((a) => a.id),
    );
    return attachments.map((a) => ({
      ...a,
      messages: links.filter((l) => l.attachment_id === a.id).map((l) => ({ id: l.id, dateSent: l.date_sent })),
    }));
  }

  async spaceUsed(ownerId: number, tx?: Tx): Promise<number> {
    const rows = await (tx ?? this.db).$queryRawUnsafe<{ total: number }[]>(
      'SELECT COALESCE(sum(size), 0)::int AS total FROM attachments WHERE owner_id = $1',
      ownerId,
    );
    return rows[0]?.total ?? 0;
  }

  /** Test support: makes uploads look older than they are. */
  async ageAll(ownerId: number, by: { days: number }): Promise<void> {
    await this.db.$executeRawUnsafe(
      `UPDATE attachments SET create_time = create_time - make_interval(days => $2) WHERE owner_id = $1`,
      ownerId,
      by.days,
    );
  }
}
