import pg from 'pg';
import type { Logger } from '@confab/logging';
import type { EventBus } from './bus.js';
import { parseEnvelope, type EventContract } from './envelope.js';
import { eventsPublished, invalidOutboxEvents, registerLagSource } from './metrics.js';

export interface RelayOptions {
  databaseUrl: string;
  bus: EventBus;
  logger: Logger;
  /** How often to look for rows when nobody kicked the relay (ms). Default 250. */
  pollIntervalMs?: number;
  /** Rows published per transaction. Default 500. */
  batchSize?: number;
  /**
   * Events whose stored form the relay checks against their contract before publishing: those a statement
   * completes in SQL (messaging's send writes message.sent with its id, receivers and flags filled in by the
   * database), which no code saw in their final form. One that fails is logged with its envelope and not published.
   */
  validate?: readonly EventContract<unknown>[];
}

/**
 * One lock per database, so that among a service's replicas exactly one relays at a time, in id order. The backup
 * (services/settings/src/operations/backup.ts) holds it in every database to pause publishing while it takes its cut.
 */
export const RELAY_LOCK_KEY = 0x0c0f_ab01;

/** An outbox id as it may stand in a statement's text: the digits of a bigint, nothing else. */
function idLiteral(id: string | number): string {
  const text = String(id);
  if (!/^\d+$/.test(text)) throw new Error(`not an outbox id: ${text}`);
  return text;
}

interface OutboxRow {
  id: string | number;
  event_id: string;
  routing_key: string;
  /** The envelope's JSON as stored: published as it is (parsed only to check the contracts of `validate`). */
  envelope: string;
}

/**
 * Publishes what services committed to their `outbox` table: rows are read under a transaction-level advisory
 * lock, published with publisher confirms, and deleted only after the broker confirmed them. A crash between
 * publish and delete republishes; consumers de-duplicate by event id. Nothing is published before commit.
 */
export class OutboxRelay {
  private readonly pool: pg.Pool;
  private readonly log: Logger;
  private running = false;
  private pending = false;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private failures = 0;
  /** A commit of this process kicked the relay and no batch has been read since (its rows may be waiting). */
  private owed = false;

  private readonly checked: Map<string, EventContract<unknown>>;

  constructor(private readonly options: RelayOptions) {
    this.checked = new Map((options.validate ?? []).map((c) => [c.type, c]));
    this.pool = new pg.Pool({ connectionString: options.databaseUrl, max: 1 });
    this.pool.on('error', (err) => this.log.warn({ err: err.message }, 'outbox relay connection error'));
    this.log = options.logger.child({ component: 'outbox-relay' });
  }

  start(): void {
    registerLagSource(() => this.lagSeconds());
    const interval = this.options.pollIntervalMs ?? 250;
    const tick = () => {
      if (this.stopped) return;
      this.wake();
      this.timer = setTimeout(tick, interval * Math.min(20, 2 ** this.failures));
      this.timer.unref();
    };
    tick();
  }

  /** Called right after a transaction that wrote outbox rows commits, so events leave without waiting for a poll. */
  kick(): void {
    this.owed = true;
    this.wake();
  }

  private wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.pending = true;
      return;
    }
    this.running = true;
    this.drain()
      .catch((err: unknown) => {
        this.failures = Math.min(this.failures + 1, 5);
        this.log.warn({ err: err instanceof Error ? err.message : err }, 'outbox relay failed; will retry');
      })
      .finally(() => {
        this.running = false;
      });
  }

  private async drain(): Promise<void> {
    const batchSize = this.options.batchSize ?? 500;
    do {
      this.pending = false;
      const owed = this.owed;
      this.owed = false;
      let relayed: number;
      do {
        relayed = await this.relayBatch(batchSize);
      } while (relayed === batchSize && !this.stopped);
      if (relayed < 0 && owed) {
        // Another replica holds the lock and may have read before this process's commit: look again shortly so the
        // commit does not wait for a full poll interval. A poll that finds the lock held waits for the next one
        // (the holder is relaying), rather than asking every 25 ms while another process relays a burst.
        setTimeout(() => this.kick(), 25).unref();
      }
    } while (this.pending && !this.stopped);
    this.failures = 0;
  }

  /** Relays one batch; returns the number of rows, or -1 when another replica is relaying. */
  private async relayBatch(batchSize: number): Promise<number> {
    const client = await this.pool.connect();
    // A checked-out client's connection errors are ours to handle (the query fails too); unhandled, they crash the process.
    const onError = (err: Error) => this.log.warn({ err: err.message }, 'outbox relay connection lost');
    client.on('error', onError);
    let broken = false;
    try {
      // Two round trips per batch: the lock and the read with BEGIN, the delete with COMMIT (simple-protocol
      // statement lists; every value in them is this code's integers). The read is a statement after the lock's, so
      // its snapshot holds every row a previous holder of the lock left; a read without the lock is discarded.
      const [, lock, read] = (await client.query(
        `BEGIN; SELECT pg_try_advisory_xact_lock(${RELAY_LOCK_KEY}) AS locked;
         SELECT id, event_id, routing_key, envelope::text AS envelope FROM outbox
          WHERE (SELECT pg_try_advisory_xact_lock(${RELAY_LOCK_KEY})) ORDER BY id LIMIT ${Math.trunc(batchSize)}`,
      )) as unknown as [unknown, pg.QueryResult<{ locked: boolean }>, pg.QueryResult<OutboxRow>];
      if (!lock.rows[0]?.locked) {
        await client.query('ROLLBACK');
        return -1;
      }
      const rows = read.rows;
      if (rows.length === 0) {
        await client.query('COMMIT');
        return 0;
      }
      const valid = this.checked.size === 0 ? rows : rows.filter((r) => this.conforms(r));
      if (valid.length > 0) {
        await this.options.bus.publishRaw(
          valid.map((r) => ({ eventId: r.event_id, routingKey: r.routing_key, json: r.envelope })),
        );
      }
      await client.query(`DELETE FROM outbox WHERE id IN (${rows.map((r) => idLiteral(r.id)).join(', ')}); COMMIT`);
      for (const r of valid) eventsPublished.inc({ routing_key: r.routing_key });
      return rows.length;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw err;
    } finally {
      client.off('error', onError);
      // A connection that could not even roll back is discarded rather than returned to the pool.
      client.release(broken);
    }
  }

  /** Whether a row of a checked contract conforms to it; one that does not is logged, counted and left out. */
  private conforms(row: OutboxRow): boolean {
    const contract = this.checked.get(row.routing_key);
    if (!contract) return true;
    try {
      parseEnvelope(contract, JSON.parse(row.envelope));
      return true;
    } catch (err) {
      invalidOutboxEvents.inc({ routing_key: row.routing_key });
      this.log.error(
        { err: err instanceof Error ? err.message : err, event_id: row.event_id, envelope: row.envelope },
        'outbox event does not conform to its contract; not published',
      );
      return false;
    }
  }

  /** Age of the oldest unpublished event in seconds (0 when the outbox is empty), for metrics. */
  async lagSeconds(): Promise<number> {
    const { rows } = await this.pool.query<{ lag: number | null }>(
      'SELECT EXTRACT(EPOCH FROM (now() - min(created_at)))::float8 AS lag FROM outbox',
    );
    return rows[0]?.lag ?? 0;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    for (let i = 0; i < 100 && this.running; i++) await new Promise((r) => setTimeout(r, 20));
    await this.pool.end().catch(() => undefined);
  }
}
