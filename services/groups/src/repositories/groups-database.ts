import { claimEvent, isEventProcessed, type OutboxRecord } from '@confab/events';
import type { GroupsDatabase, GroupStore, Written } from '../domain/store.js';
import { PrismaGroupStore } from './group-store.js';
import type { Db, Prisma, Tx } from './prisma.js';

/** Namespace of this service's advisory locks (two-key form: namespace, realm id). */
const REALM_LOCK_NAMESPACE = 0x6772_6f75;

/** Interactive transactions may wait for the realm lock behind others; bounded so a stuck one cannot block forever. */
const TRANSACTION_OPTIONS = { maxWait: 10_000, timeout: 20_000 };

/** The groups service's database: reads, and writes serialized per organization with their events in the outbox. */
export class PrismaGroupsDatabase implements GroupsDatabase {
  constructor(
    readonly db: Db,
    /** Called after a transaction that wrote outbox rows commits (wakes the outbox relay). */
    private readonly afterCommit: () => void = () => undefined,
  ) {}

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

  private async transaction<T>(
    realmId: number,
    claim: { consumer: string; eventId: string } | null,
    fn: (store: GroupStore) => Promise<Written<T>>,
  ): Promise<{ claimed: boolean; result: T | undefined }> {
    let wroteEvents = false;
    const outcome = await this.db.$transaction(async (tx) => {
      if (claim && !(await claimEvent(tx, claim.consumer, claim.eventId))) return { claimed: false, result: undefined };
      // One writer per organization at a time: membership checks (cycles, `old` values, objections) and the
      // flattened membership published with each change then describe one serial history.
      await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock($1::int, $2::int)', REALM_LOCK_NAMESPACE, realmId);
      const { result, events } = await fn(new PrismaGroupStore(tx));
      await writeOutbox(tx, events);
      wroteEvents = events.length > 0;
      return { claimed: true, result };
    }, TRANSACTION_OPTIONS);
    if (wroteEvents) this.afterCommit();
    return outcome;
  }

  /** True until the first organization is known (then the backfill from the settings service is due). */
  async isEmpty(): Promise<boolean> {
    return (await this.db.realm.findFirst({ select: { id: true } })) === null;
  }

  isEventProcessed(eventId: string): Promise<boolean> {
    return isEventProcessed(this.db, eventId);
  }

  async ping(): Promise<boolean> {
    try {
      await this.db.$queryRawUnsafe('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }
}

async function writeOutbox(tx: Tx, events: readonly OutboxRecord[]): Promise<void> {
  if (events.length === 0) return;
  await tx.outbox.createMany({
    data: events.map((e) => ({
      eventId: e.eventId,
      routingKey: e.routingKey,
      envelope: e.envelope as unknown as Prisma.InputJsonValue,
    })),
  });
}
