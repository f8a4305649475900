import type { Written } from '@confab/events';
import type { MessagingDatabase, MessagingStore } from '../domain/store.js';
import type { Tx } from './prisma.js';
import type { Store } from './store.js';

/** A part of the store: a repository's view of one transaction. */
interface StorePart<U> {
  in(tx: Tx): U;
}

/** The repositories whose parts make up a unit of work's MessagingStore, one per port. */
export type StoreParts = { [K in keyof MessagingStore]: StorePart<MessagingStore[K]> };

/**
 * Messaging's units of work (the domain's MessagingDatabase): one Prisma transaction through the Store's unit of work
 * (`@confab/events`: the outbox rows with the change, the relay woken after the commit), with every part of the
 * store joined to it.
 */
export class PrismaMessagingDatabase implements MessagingDatabase {
  constructor(
    private readonly store: Store,
    private readonly parts: StoreParts,
  ) {}

  write<T>(realmId: number, fn: (store: MessagingStore) => Promise<Written<T>>): Promise<T> {
    return this.store.transaction(async (tx) => {
      const written = await fn(this.storeIn(tx));
      const stray = written.events.find((record) => record.envelope.realm_id !== realmId);
      if (stray) throw new Error(`a write to organization ${realmId} produced an event of ${stray.envelope.realm_id}`);
      return written;
    });
  }

  writeAcross<T>(fn: (store: MessagingStore) => Promise<Written<T>>): Promise<T> {
    return this.store.transaction((tx) => fn(this.storeIn(tx)));
  }

  /**
   * The store joined to a transaction the caller opened: for the read-model consumers, whose claim and change share
   * the Store's consumer unit (`Store.applyOnce`) and whose follow-ups (a new member's default channels) are domain
   * functions over the store.
   */
  storeIn(tx: Tx): MessagingStore {
    const joined: Partial<Record<keyof MessagingStore, unknown>> = {};
    for (const key of Object.keys(this.parts) as (keyof MessagingStore)[]) joined[key] = this.parts[key].in(tx);
    return joined as MessagingStore;
  }
}
