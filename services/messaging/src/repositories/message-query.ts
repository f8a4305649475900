import { FLAG, RESOLVED_TOPIC_PREFIX } from '@confab/zulip';
import type { MessageQuery, SearchScope, Term } from '../domain/narrow.js';

/** The SQL conditions of a narrow query. */
export function narrowSqlOf(query: MessageQuery): NarrowSql {
  const sql = new NarrowSql(query.userId, query.scope);
  for (const term of query.terms) sql.add(term);
  return sql;
}

/** A parameterised SQL condition builder for narrows (no user input is ever interpolated). */
export class NarrowSql {
  readonly values: unknown[] = [];
  private readonly conditions: string[] = [];

  constructor(
    readonly userId: number,
    readonly scope: SearchScope,
  ) {
    this.values.push(userId);
    if (scope.kind === 'history') this.conditions.push(this.recipientIn(scope.recipientIds));
  }

  /**
   * `m.recipient_id` among these. One recipient (a channel, a conversation) is written as an equality so that
   * PostgreSQL walks the (recipient_id, id) index in id order and stops at the limit; `= ANY(array)` cannot be
   * read in id order and made it sort every message of the channel for each page (bench/RESULTS.md).
   */
  private recipientIn(ids: readonly number[]): string {
    return ids.length === 1
      ? `m.recipient_id = ${this.param(ids[0])}::int`
      : `m.recipient_id = ANY(${this.param(ids)}::int[])`;
  }

  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** The FROM clause, the id column the range conditions use, and the flags expression. */
  get from(): { sql: string; idColumn: string; flags: string } {
    if (this.scope.kind === 'user') {
      return {
        sql: 'FROM user_messages um JOIN messages m ON m.id = um.message_id',
        idColumn: 'um.message_id',
        flags: 'um.flags',
      };
    }
    // Messages the user never received read as read and historical, as in Zulip.
    return {
      sql: 'FROM messages m LEFT JOIN user_messages um ON um.message_id = m.id AND um.user_id = $1',
      idColumn: 'm.id',
      flags: `COALESCE(um.flags, ${FLAG.read | FLAG.historical})`,
    };
  }

  add(term: Term): void {
    const not = (sql: string, negated: boolean) => (negated ? `NOT (${sql})` : sql);
    switch (term.kind) {
      case 'none':
        this.conditions.push(term.negated ? 'TRUE' : 'FALSE');
        return;
      case 'recipients':
        this.conditions.push(not(this.recipientIn(term.recipientIds), term.negated));
        return;
      case 'topic':
        // Stored topics cannot contain NUL (text cannot), so such a topic matches nothing.
        this.conditions.push(
          not(
            `m.channel_id IS NOT NULL AND m.topic_key = ${this.param(term.topicKey.replaceAll('\u0000', '\uFFFD'))}`,
            term.negated,
          ),
        );
        return;
      case 'sender':
        this.conditions.push(not(`m.sender_id = ${this.param(term.userId)}`, term.negated));
        return;
      case 'dmIncluding':
        this.conditions.push(
          not(
            `m.channel_id IS NULL AND EXISTS (SELECT 1 FROM recipients r WHERE r.id = m.recipient_id
               AND ${this.param(term.userId)}::int = ANY(string_to_array(r.dm_key, ',')::int[]))`,
            term.negated,
          ),
        );
        return;
      case 'direct':
        this.conditions.push(not('m.channel_id IS NULL', term.negated));
        return;
      case 'flags': {
        const flags = this.from.flags;
        const sql = term.set ? `(${flags} & ${term.bits}) <> 0` : `(${flags} & ${term.bits}) = 0`;
        this.conditions.push(not(sql, term.negated));
        return;
      }
      case 'resolved':
        // The prefix holds no quote and no LIKE wildcard.
        this.conditions.push(not(`m.topic LIKE '${RESOLVED_TOPIC_PREFIX}%'`, term.negated));
        return;
      case 'has': {
        const sql =
          term.what === 'reaction'
            ? 'EXISTS (SELECT 1 FROM reactions rx WHERE rx.message_id = m.id)'
            : `m.has_${term.what}`;
        this.conditions.push(not(sql, term.negated));
        return;
      }
      case 'id':
        this.conditions.push(not(`m.id = ${this.param(term.id)}::bigint`, term.negated));
        return;
      case 'search': {
        const words = term.text.replaceAll('\u0000', ' ').split(/\s+/).filter(Boolean);
        const parts = words.map((w) => {
          const like = this.param(`%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
          return `(m.content ILIKE ${like} OR m.topic ILIKE ${like})`;
        });
        if (parts.length > 0) this.conditions.push(not(parts.join(' AND '), term.negated));
        return;
      }
    }
  }

  where(extra: string[] = []): string {
    const all = [...this.conditions, ...extra];
    const base = this.scope.kind === 'user' ? ['um.user_id = $1'] : [];
    const list = [...base, ...all];
    return list.length ? `WHERE ${list.join(' AND ')}` : '';
  }
}
