import type { Readable } from 'node:stream';
import type { OutboxRecord, Written } from '@confab/events';

/**
 * The storage this domain works on, as it declares it (docs/architecture.md, "Data access"): repositories implement
 * these ports. The domain never holds a transaction: a unit of work hands it the store's parts joined to one
 * (domain/store.ts).
 */

/** Runs one SQL statement with positional parameters: a plain-SQL transaction, or a Prisma one seen as one. */
export interface SqlExecutor {
  /** `prepare: false` for statements whose text varies without bound (each prepared text stays on its connection). */
  query<T>(text: string, values: readonly unknown[], options?: { prepare?: boolean }): Promise<T[]>;
}

/**
 * What the domain still reaches of the Store beside `db.write` (domain/store.ts, the way changes are written): the
 * scheduled batches' unit of work and events of no change.
 */
export interface UnitOfWorkPort {
  /**
   * Changes and their events in one plain-SQL transaction on the few connections kept for large shared statements
   * (the scheduled batches' sends, a dozen CTEs per message), which plan each statement once and keep the plan:
   * planned afresh on whichever connection came free, such a statement cost more to plan than to run. The outbox
   * relay is woken after the commit (`@confab/events`).
   */
  batchTransaction<T>(fn: (executor: SqlExecutor) => Promise<Written<T>>): Promise<T>;
  /** Events that go with no change of this service's own (typing). */
  publish(events: readonly OutboxRecord[]): Promise<void>;
}

/** Where uploaded files live: local disk here; an S3-compatible store implements the same interface. */
export interface FileStore {
  put(pathId: string, data: Buffer, contentType: string): Promise<void>;
  /** The file's bytes as a stream, or null when it does not exist. */
  get(pathId: string): Promise<{ stream: Readable; size: number } | null>;
  /** Removes the file; a missing file is not an error. */
  delete(pathId: string): Promise<void>;
}

/** A file of a multipart request, as the route layer hands it over. */
export interface UploadedFile {
  filename: string;
  mimeType: string;
  data: Buffer;
}
