import { once } from 'node:events';
import { finished } from 'node:stream/promises';
import { PrismaPg } from '@prisma/adapter-pg';
import { HeldTransaction } from '@confab/porting';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { PrismaClient } from '../generated/prisma/client.js';
import type { Tx } from '../repositories/prisma.js';

/**
 * A pool of one connection that it hands to every caller and never gives back: Prisma's interactive transaction
 * runs on it, and so do the import's COPY statements, which Prisma cannot send — so both are in one transaction.
 */
class OneConnectionPool extends pg.Pool {
  private pinned: Promise<pg.PoolClient> | null = null;
  private releaseReal: ((err?: Error | boolean) => void) | null = null;

  override connect(): Promise<pg.PoolClient> {
    this.pinned ??= super.connect().then((client) => {
      this.releaseReal = client.release.bind(client);
      client.release = () => undefined;
      return client;
    });
    return this.pinned;
  }

  async close(): Promise<void> {
    this.releaseReal?.(true);
    this.releaseReal = null;
    this.pinned = null;
    await this.end().catch(() => undefined);
  }
}

// eslint-disable-next-line no-control-regex -- NUL is what it finds.
const COPY_SPECIAL = /[\\\n\r\t\u0000]/g;

/** Escapes a value for COPY's text format (`\N` is NULL); PostgreSQL text cannot hold NUL, which is dropped. */
export function copyValue(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '\\N';
  if (typeof value !== 'string') return String(value);
  return value.replace(COPY_SPECIAL, (c) =>
    c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : '',
  );
}

/** A row of COPY's text format. */
export function copyLine(values: (string | number | boolean | null | undefined)[]): string {
  return values.map(copyValue).join('\t');
}

/** A time of the model (seconds since the epoch) as a timestamp for PostgreSQL. */
export function isoSeconds(s: number): string {
  return new Date(Math.round(s * 1000)).toISOString();
}

/** The next `count` ids of a sequence, ascending. */
export async function nextIds(db: ImportDatabase, sequence: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  const rows = await db.query<{ id: number }>(
    `SELECT nextval('${sequence}')::int AS id FROM generate_series(1, $1::int)`,
    [count],
  );
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/**
 * The messaging database as an import uses it: one transaction held open until the import commits, reachable
 * through Prisma (`tx`, for the repositories' own read-model code) and as plain SQL with COPY on the same connection.
 */
export class ImportDatabase {
  private readonly pool: OneConnectionPool;
  readonly prisma: PrismaClient;
  private readonly held: HeldTransaction<Tx>;

  constructor(url: string) {
    this.pool = new OneConnectionPool({ connectionString: url, max: 1 });
    this.pool.on('error', () => undefined);
    this.prisma = new PrismaClient({ adapter: new PrismaPg(this.pool) });
    this.held = new HeldTransaction<Tx>((body) =>
      this.prisma.$transaction(body, { timeout: 24 * 3600 * 1000, maxWait: 60_000 }),
    );
  }

  get started(): boolean {
    return this.held.started;
  }

  tx(): Promise<Tx> {
    return this.held.get();
  }

  /** A statement in the import's transaction. */
  async query<T>(text: string, values: unknown[] = []): Promise<T[]> {
    await this.tx();
    const client = await this.pool.connect();
    return (await client.query(text, values)).rows as T[];
  }

  /** COPY … FROM STDIN in the import's transaction; `lines` are rows of COPY's text format, without newlines. */
  async copy(statement: string, lines: Iterable<string> | AsyncIterable<string>): Promise<void> {
    await this.tx();
    const client = await this.pool.connect();
    const stream = client.query(copyFrom(statement));
    const failed = once(stream, 'error').then(([err]) => Promise.reject(err as Error));
    failed.catch(() => undefined);
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      const chunk = `${batch.join('\n')}\n`;
      batch = [];
      if (!stream.write(chunk)) await Promise.race([once(stream, 'drain'), failed]);
    };
    for await (const line of lines) {
      batch.push(line);
      if (batch.length >= 2000) await flush();
    }
    await flush();
    stream.end();
    await Promise.race([finished(stream), failed]);
  }

  commit(): Promise<void> {
    return this.held.commit();
  }

  abort(): Promise<void> {
    return this.held.abort();
  }

  async close(): Promise<void> {
    await this.held.abort();
    await this.prisma.$disconnect().catch(() => undefined);
    await this.pool.close();
  }
}
