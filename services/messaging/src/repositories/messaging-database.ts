import type { Written } from '@confab/events';
import type { MessagingDatabase, MessagingStore, PlainStore } from '../domain/store.js';
import type { Tx } from './prisma.js';
import type { SqlExecutor } from './sql.js';
import type { Store } from './store.js';

/** A part of the store over Prisma: a repository's view of one transaction. */
interface StorePart<U> {
  in(tx: Tx): U;
}

/** A part of the store in plain SQL: joins a plain-SQL transaction, or a Prisma one seen as plain SQL. */
interface PlainPart<U> {
  on(executor: SqlExecutor): U;
}

/** The repositories whose parts make up a unit of work's MessagingStore, one per port. */
export type StoreParts = { [K in Exclude<keyof MessagingStore, keyof PlainStore>]: StorePart<MessagingStore[K]> };
export type PlainParts = { [K in keyof PlainStore]: PlainPart<PlainStore[K]> };

/** Refuses a unit of work's events of another organization than the one it writes to. */
function ofOneOrganization<T>(realmId: number, written: Written<T>): Written<T> {
  const stray = written.events.find((record) => record.envelope.realm_id !== realmId);
  if (stray) throw new Error(`a write to organization ${realmId} produced an event of ${stray.envelope.realm_id}`);
  return written;
}

/**
 * Messaging's units of work (the domain's MessagingDatabase): one transaction through the Store's unit of work
 * (`@confab/events`: the outbox rows with the change, the relay woken after the commit), with every part of the
 * store joined to it.
 */
export class PrismaMessagingDatabase implements MessagingDatabase {
  constructor(
    private readonly store: Store,
    private readonly parts: StoreParts,
    private readonly plainParts: PlainParts,
  ) {}

  write<T>(realmId: number, fn: (store: MessagingStore) => Promise<Written<T>>): Promise<T> {
    return this.store.transaction(async (tx) => ofOneOrganization(realmId, await fn(this.storeIn(tx))));
  }

  writeAcross<T>(fn: (store: MessagingStore) => Promise<Written<T>>): Promise<T> {
    return this.store.transaction((tx) => fn(this.storeIn(tx)));
  }

  writeSql<T>(realmId: number, fn: (store: PlainStore) => Promise<Written<T>>): Promise<T> {
    return this.store.sqlTransaction(async (executor) => ofOneOrganization(realmId, await fn(this.plainOn(executor))));
  }

  /**
   * The store joined to a transaction the caller opened: for the read-model consumers, whose claim and change share
   * the Store's consumer unit (`Store.applyOnce`) and whose follow-ups (a new member's default channels) are domain
   * functions over the store.
   */
  storeIn(tx: Tx): MessagingStore {
    const joined: Partial<Record<keyof MessagingStore, unknown>> = this.plainOn(this.store.sqlOf(tx));
    for (const key of Object.keys(this.parts) as (keyof StoreParts)[]) joined[key] = this.parts[key].in(tx);
    return joined as MessagingStore;
  }

  private plainOn(executor: SqlExecutor): PlainStore {
    const { edits, submessages, flags, reactions, userTopics, sql } = this.plainParts;
    return {
      edits: edits.on(executor),
      submessages: submessages.on(executor),
      flags: flags.on(executor),
      reactions: reactions.on(executor),
      userTopics: userTopics.on(executor),
      sql: sql.on(executor),
    };
  }
}
