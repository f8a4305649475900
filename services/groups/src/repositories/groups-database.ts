import { claimEvent, isEventProcessed, PRISMA_TRANSACTION_OPTIONS, UnitOfWork } from '@confab/events';
import { pingDatabase } from '@confab/runtime';
import type { GroupsDatabase, GroupStore, Written } from '../domain/store.js';
import { PrismaGroupStore } from './group-store.js';
import type { Db, Tx } from './prisma.js';

/** Namespace of this service's advisory locks (two-key form: namespace, realm id). */
const REALM_LOCK_NAMESPACE = 0x6772_6f75;

/** Interactive transactions may wait for the realm lock behind others; bounded so a stuck one cannot block forever. */

/** The groups service's database: reads, and writes serialized per organization with their events in the outbox. */
export class PrismaGroupsDatabase implements GroupsDatabase {
  private readonly unit: UnitOfWork<Tx>;

  constructor(
    readonly db: Db,
    /** Called after a transaction that wrote outbox rows commits (wakes the outbox relay). */
    afterCommit: () => void = () => undefined,
  ) {
    this.unit = UnitOfWork.prisma<Tx>((body) => this.db.$transaction(body, PRISMA_TRANSACTION_OPTIONS), afterCommit);
  }

  read<T>(fn: (store: GroupStore) => Promise<T>): Promise<T> {
    return fn(new PrismaGroupStore(this.db));
  }

  async write<T>(realmId: number, fn: (store: GroupStore) => Promise<Written<T>>): Promise<T> {
    const outcome = await this.transaction(realmId, null, fn);
    return outcome.result as T;
  }

  async writeOnce<T>(
    realmId: number,
    claim: { consumer: string; eventId: string },
    fn: (store: GroupStore) => Promise<Written<T>>,
  ): Promise<T | undefined> {
    const outcome = await this.transaction(realmId, claim, fn);
    return outcome.claimed ? outcome.result : undefined;
  }

  private transaction<T>(
    realmId: number,
    claim: { consumer: string; eventId: string } | null,
    fn: (store: GroupStore) => Promise<Written<T>>,
  ): Promise<{ claimed: boolean; result: T | undefined }> {
    return this.unit.run<{ claimed: boolean; result: T | undefined }>(async (tx) => {
      if (claim && !(await claimEvent(tx, claim.consumer, claim.eventId))) {
        return { result: { claimed: false, result: undefined }, events: [] };
      }
      // One writer per organization at a time: membership checks (cycles, `old` values, objections) and the
      // flattened membership published with each change then describe one serial history.
      await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock($1::int, $2::int)', REALM_LOCK_NAMESPACE, realmId);
      const { result, events } = await fn(new PrismaGroupStore(tx));
      return { result: { claimed: true, result }, events };
    });
  }

  /** True until the first organization is known (then the backfill from the settings service is due). */
  async isEmpty(): Promise<boolean> {
    return (await this.db.realm.findFirst({ select: { id: true } })) === null;
  }

  isEventProcessed(eventId: string): Promise<boolean> {
    return isEventProcessed(this.db, eventId);
  }

  ping(): Promise<boolean> {
    return pingDatabase(this.db);
  }
}
