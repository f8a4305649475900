import type { ExportSearchFilter, ExportSearchStore, FoundMessage } from '../domain/export-search.js';
import type { SqlExecutor } from './sql.js';

/** LIKE's wildcards in a keyword match themselves. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The export search in one statement per page, ordered by (date_sent, id). */
export class ExportSearchRepository implements ExportSearchStore {
  constructor(private readonly sql: SqlExecutor) {}

  async search(
    filter: ExportSearchFilter,
    after: { dateSent: Date; id: number } | null,
    limit: number,
  ): Promise<FoundMessage[]> {
    const patterns = filter.keywords.map((k) => `%${likeEscape(k)}%`);
    const rows = await this.sql.query<{
      id: number;
      date_sent: Date;
      content: string;
      topic: string;
      edit_history: unknown;
      sender_name: string | null;
      sender_email: string | null;
      channel_name: string | null;
      dm_key: string | null;
    }>(
      `SELECT m.id, m.date_sent, m.content, m.topic, m.edit_history,
              u.full_name AS sender_name, u.delivery_email AS sender_email, c.name AS channel_name, r.dm_key
         FROM messages m
         LEFT JOIN users u ON u.id = m.sender_id
         LEFT JOIN channels c ON c.id = m.channel_id
         LEFT JOIN recipients r ON r.id = m.recipient_id
        WHERE m.realm_id = $1
          AND (cardinality($2::text[]) = 0 OR m.content ILIKE ANY($2::text[]) OR m.topic ILIKE ANY($2::text[]))
          AND ($3::timestamptz IS NULL OR m.date_sent > $3)
          AND ($4::timestamptz IS NULL OR m.date_sent < $4)
          AND (cardinality($5::text[]) = 0 OR lower(u.delivery_email) = ANY($5::text[]))
          AND (cardinality($6::text[]) = 0 OR EXISTS (
                SELECT 1 FROM user_messages um JOIN users ru ON ru.id = um.user_id
                 WHERE um.message_id = m.id AND lower(ru.delivery_email) = ANY($6::text[])))
          AND ($7::timestamptz IS NULL OR (m.date_sent, m.id) > ($7, $8::int))
        ORDER BY m.date_sent, m.id
        LIMIT $9`,
      [
        filter.realmId,
        patterns,
        filter.after,
        filter.before,
        filter.senders.map((e) => e.toLowerCase()),
        filter.recipients.map((e) => e.toLowerCase()),
        after?.dateSent ?? null,
        after?.id ?? 0,
        limit,
      ],
    );
    const participantIds = new Set<number>();
    for (const r of rows) if (r.dm_key) for (const id of r.dm_key.split(',')) participantIds.add(Number(id));
    const people = new Map<number, { fullName: string; email: string }>();
    if (participantIds.size > 0) {
      const users = await this.sql.query<{ id: number; full_name: string; delivery_email: string }>(
        'SELECT id, full_name, delivery_email FROM users WHERE id = ANY($1::int[])',
        [[...participantIds]],
      );
      for (const u of users) people.set(u.id, { fullName: u.full_name, email: u.delivery_email });
    }
    const attachments = new Map<number, string[]>();
    if (rows.length > 0) {
      const links = await this.sql.query<{ message_id: number; path_id: string }>(
        `SELECT am.message_id, a.path_id FROM attachment_messages am JOIN attachments a ON a.id = am.attachment_id
          WHERE am.message_id = ANY($1::int[]) ORDER BY am.message_id, a.id`,
        [rows.map((r) => r.id)],
      );
      for (const l of links) attachments.set(l.message_id, [...(attachments.get(l.message_id) ?? []), l.path_id]);
    }
    return rows.map((r) => ({
      id: r.id,
      dateSent: r.date_sent,
      sender: { fullName: r.sender_name ?? '', email: r.sender_email ?? '' },
      channel: r.channel_name === null ? null : { name: r.channel_name, topic: r.topic },
      participants: r.dm_key
        ? r.dm_key
            .split(',')
            .map((id) => people.get(Number(id)))
            .filter((p): p is { fullName: string; email: string } => p !== undefined)
        : [],
      content: r.content,
      editHistory: r.edit_history,
      attachments: attachments.get(r.id) ?? [],
    }));
  }
}
