import { FLAG } from '@confab/zulip';
import type { NarrowRange } from '../domain/message-store.js';
import type { MessageQuery } from '../domain/narrow.js';

export type { NarrowRange } from '../domain/message-store.js';
import { narrowSqlOf, type NarrowSql } from './message-query.js';
import { validId } from './prisma.js';
import type { Store } from './store.js';

/** Reads the ids and flags of the messages a narrow matches: the queries behind GET /messages and its kin. */
export class NarrowReader {
  constructor(private readonly store: Store) {}

  /** Runs a narrow query with an extra condition, ordering and limit (each call has its own parameter list). */
  private async narrowQuery(
    narrow: NarrowSql,
    extra: (param: (v: unknown) => string) => { where: string[]; order: string; limit: number },
  ) {
    const values = [...narrow.values];
    const param = (v: unknown) => {
      values.push(v);
      return `$${values.length}`;
    };
    const { where, order, limit } = extra(param);
    const from = narrow.from;
    const sql = `SELECT ${from.idColumn} AS id, ${from.flags} AS flags ${from.sql} ${narrow.where(where)} ORDER BY ${from.idColumn} ${order} LIMIT ${limit}`;
    // Every history page runs this: the plain pool, without Prisma's query engine. Not kept prepared: narrows come
    // in many shapes, and a plan for the values at hand suits channels of very different sizes.
    return this.store.sql.query<{ id: number; flags: number }>(sql, values, { prepare: false });
  }

  /**
   * Zulip's limit_query: up to num_before rows before the anchor and num_after after it (each with one row of
   * headroom, so the caller can tell whether it reached the oldest or newest message).
   */
  async fetchRange(query: MessageQuery, range: NarrowRange): Promise<{ id: number; flags: number }[]> {
    const narrow = narrowSqlOf(query);
    const id = narrow.from.idColumn;
    const needBefore = !range.anchoredLeft && range.numBefore > 0;
    const needAfter = !range.anchoredRight && range.numAfter > 0;
    const results: { id: number; flags: number }[] = [];
    if (needBefore) {
      const rows = await this.narrowQuery(narrow, (param) => ({
        // Anchors may exceed the id column's range (Zulip's LARGER_THAN_MAX_MESSAGE_ID), hence bigint.
        where: range.anchoredRight ? [] : [`${id} ${range.includeAnchor ? '<=' : '<'} ${param(range.anchor)}::bigint`],
        order: 'DESC',
        limit: range.numBefore + (range.anchoredRight ? 0 : 1),
      }));
      results.push(...rows.reverse());
    }
    if (needAfter) {
      const rows = await this.narrowQuery(narrow, (param) => ({
        where: range.anchoredLeft ? [] : [`${id} ${range.includeAnchor ? '>=' : '>'} ${param(range.anchor)}::bigint`],
        order: 'ASC',
        limit: range.numAfter + 1,
      }));
      results.push(...rows);
    }
    if (!needBefore && !needAfter && range.includeAnchor) {
      results.push(
        ...(await this.narrowQuery(narrow, (param) => ({
          where: [`${id} = ${param(range.anchor)}::bigint`],
          order: 'ASC',
          limit: 1,
        }))),
      );
    }
    const seen = new Set<number>();
    return results.filter((r) => (seen.has(r.id) ? false : (seen.add(r.id), true))).sort((a, b) => a.id - b.id);
  }

  /** Which of these messages match the narrow, with the user's flags. */
  async fetchIds(query: MessageQuery, ids: readonly number[]): Promise<{ id: number; flags: number }[]> {
    const narrow = narrowSqlOf(query);
    const wanted = [...new Set(ids.filter(validId))];
    if (wanted.length === 0) return [];
    return this.narrowQuery(narrow, (param) => ({
      where: [`${narrow.from.idColumn} = ANY(${param(wanted)}::int[])`],
      order: 'ASC',
      limit: wanted.length,
    }));
  }

  /** The oldest unread message matching the narrow (only the user's own rows can be unread). */
  async firstUnread(query: MessageQuery): Promise<number | null> {
    const rows = await this.narrowQuery(narrowSqlOf(query), () => ({
      where: [`um.message_id IS NOT NULL AND (um.flags & ${FLAG.read}) = 0`],
      order: 'ASC',
      limit: 1,
    }));
    return rows[0]?.id ?? null;
  }
}
