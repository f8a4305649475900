import { contracts, outboxRecord } from '@confab/events';
import { Store, type DirectPublisher } from '../src/repositories/store';
import type { Db } from '../src/repositories/prisma';
import type { SqlPool } from '../src/repositories/sql';

/** Typing events change nothing: they go to the broker directly, and through the outbox only when it cannot take them. */
describe('Store.publish (events of no change)', () => {
  const typing = () =>
    outboxRecord(
      contracts.typingStarted,
      {
        sender: { user_id: 10, email: 'hamlet@example.com' },
        message_type: 'direct',
        recipients: [{ user_id: 11, email: 'othello@example.com' }],
        user_ids: [11],
      },
      { realmId: 1, requestId: 'r1' },
    );

  function storeWith(broker: DirectPublisher | undefined) {
    const statements: string[] = [];
    let woken = 0;
    const sql = {
      query: (text: string) => {
        statements.push(text);
        return Promise.resolve([]);
      },
    } as unknown as SqlPool;
    const store = new Store({} as Db, sql, () => woken++);
    if (broker) store.useBroker(broker);
    return { store, statements, woken: () => woken };
  }

  it('publishes to a connected broker and writes no outbox row', async () => {
    const published: string[] = [];
    const { store, statements, woken } = storeWith({
      isConnected: () => true,
      publish: (records) => {
        published.push(...records.map((r) => r.routingKey));
        return Promise.resolve();
      },
    });
    await store.publish([typing()]);
    expect(published).toEqual(['typing.started']);
    expect(statements).toEqual([]);
    expect(woken()).toBe(0);
  });

  it('writes the outbox and wakes the relay when the broker is not connected, or refuses', async () => {
    for (const broker of [
      undefined,
      { isConnected: () => false, publish: () => Promise.reject(new Error('not called')) },
      { isConnected: () => true, publish: () => Promise.reject(new Error('channel closed')) },
    ]) {
      const { store, statements, woken } = storeWith(broker);
      await store.publish([typing()]);
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/INSERT INTO outbox/);
      expect(woken()).toBe(1);
    }
  });
});
