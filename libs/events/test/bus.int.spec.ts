import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connect } from 'amqplib';
import { createDatabase, dropDatabase, LOCAL_DEFAULTS } from '@confab/devkit';
import { createLogger } from '@confab/logging';
import {
  claimEvent,
  contracts,
  EventBus,
  eventsReceived,
  invalidOutboxEvents,
  OutboxRelay,
  outboxRecord,
  retireConsumers,
  type EventEnvelope,
} from '@confab/events';

const postgresUrl = process.env.DATABASE_URL ?? LOCAL_DEFAULTS.postgresUrl;
const amqpUrl = process.env.AMQP_URL ?? LOCAL_DEFAULTS.amqpUrl;
const logger = createLogger({ name: 'events-test', level: 'silent' });

const SCHEMA = `
  CREATE TABLE outbox (id bigserial PRIMARY KEY, event_id uuid UNIQUE NOT NULL, routing_key text NOT NULL,
                       envelope jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT now());
  CREATE TABLE processed_events (consumer text NOT NULL, event_id uuid NOT NULL,
                                 processed_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (consumer, event_id));
  CREATE TABLE effects (event_id uuid NOT NULL, name text NOT NULL);`;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await sleep(25);
  }
}

const user = (id: number, name: string): contracts.UserRecord => ({
  user_id: id,
  realm_id: 1,
  email: `${name}@zulip.com`,
  delivery_email: `${name}@zulip.com`,
  full_name: name,
  role: 400,
  is_bot: false,
  bot_type: null,
  bot_owner_id: null,
  is_active: true,
  timezone: '',
  date_joined: new Date().toISOString(),
});

describe('outbox relay and consumers (RabbitMQ, PostgreSQL)', () => {
  const suffix = randomBytes(4).toString('hex');
  const dbName = `confab_test_events_${suffix}`;
  const exchange = `confab.test.${suffix}`;
  let pool: pg.Pool;
  let bus: EventBus;
  let relay: OutboxRelay;
  let databaseUrl: string;
  const handled: string[] = [];
  let failuresToInject = 0;

  // A Prisma-like executor over pg, as the consumers' transactions see it.
  const inTransaction = async (
    fn: (tx: { $executeRawUnsafe(q: string, ...v: unknown[]): Promise<number> }) => Promise<void>,
  ) => {
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await fn({ $executeRawUnsafe: async (q, ...v) => (await client.query(q, v)).rowCount ?? 0 });
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK');
      throw err;
    } finally {
      client.release();
    }
  };

  beforeAll(async () => {
    databaseUrl = await createDatabase(postgresUrl, dbName);
    pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    await pool.query(SCHEMA);
    bus = new EventBus({ url: amqpUrl, exchange, logger, queueExpiresMs: 60_000 });
    const handle = async (event: EventEnvelope<{ user: contracts.UserRecord }>) => {
      if (failuresToInject > 0) {
        failuresToInject--;
        throw new Error('injected transient failure');
      }
      await inTransaction(async (tx) => {
        if (!(await claimEvent(tx, 'test.users', event.event_id))) return;
        await tx.$executeRawUnsafe(
          'INSERT INTO effects (event_id, name) VALUES ($1::uuid, $2)',
          event.event_id,
          event.payload.user.full_name,
        );
        handled.push(event.payload.user.full_name);
      });
    };
    bus.consumer('test.users', { maxAttempts: 5 }).on(contracts.userCreated, handle).on(contracts.userUpdated, handle);
    await bus.start();
    // user.created is checked as stored, as messaging's relay checks the message.sent its statement completes.
    relay = new OutboxRelay({ databaseUrl, bus, logger, pollIntervalMs: 50, validate: [contracts.userCreated] });
    relay.start();
  });

  afterAll(async () => {
    await relay.stop();
    const connection = await connect(amqpUrl);
    const channel = await connection.createChannel();
    await channel.deleteQueue(`${exchange}.test.users`);
    await channel.deleteQueue(`${exchange}.test.users.dlq`);
    await channel.deleteExchange(exchange);
    await channel.deleteExchange(`${exchange}.dlx`);
    await connection.close();
    await bus.close();
    await pool.end();
    await dropDatabase(postgresUrl, dbName);
  });

  async function commit(records: ReturnType<typeof outboxRecord>[]): Promise<void> {
    for (const r of records) {
      await pool.query('INSERT INTO outbox (event_id, routing_key, envelope) VALUES ($1, $2, $3)', [
        r.eventId,
        r.routingKey,
        JSON.stringify(r.envelope),
      ]);
    }
    relay.kick();
  }

  it('publishes committed events in order and empties the outbox', async () => {
    handled.length = 0;
    const names = ['ann', 'bob', 'cy', 'dee', 'eve'];
    await commit(names.map((n, i) => outboxRecord(contracts.userCreated, { user: user(i + 1, n) }, { realmId: 1 })));
    await eventually(async () => handled.length === names.length);
    expect(handled).toEqual(names);
    await eventually(async () => (await pool.query('SELECT count(*)::int AS n FROM outbox')).rows[0].n === 0);
  });

  it('relays in commit order with a second replica competing for the outbox, in batches of any size', async () => {
    handled.length = 0;
    const replica = new OutboxRelay({ databaseUrl, bus, logger, pollIntervalMs: 50, batchSize: 3 });
    replica.start();
    try {
      const names = Array.from({ length: 60 }, (_, i) => `replica-${i}`);
      for (let i = 0; i < names.length; i += 6) {
        await commit(
          names
            .slice(i, i + 6)
            .map((n, j) => outboxRecord(contracts.userCreated, { user: user(100 + i + j, n) }, { realmId: 1 })),
        );
        replica.kick();
      }
      await eventually(async () => handled.length === names.length);
      expect(handled).toEqual(names);
      await eventually(async () => (await pool.query('SELECT count(*)::int AS n FROM outbox')).rows[0].n === 0);
    } finally {
      await replica.stop();
    }
  });

  it('deletes the queues of a consumer a service retired, and does nothing the second time', async () => {
    const old = new EventBus({ url: amqpUrl, exchange, logger, queueExpiresMs: 60_000 });
    old.consumer('retired').on(contracts.userCreated, async () => {
      throw new Error('an earlier version of the service');
    });
    await old.start();
    await old.close();
    const connection = await connect(amqpUrl);
    try {
      const channel = await connection.createChannel();
      expect((await channel.checkQueue(`${exchange}.retired`)).consumerCount).toBe(0);
      await channel.close();
      expect(await retireConsumers({ url: amqpUrl, exchange }, ['retired'])).toEqual([]);
      expect(await retireConsumers({ url: amqpUrl, exchange }, ['retired'])).toEqual([]);
      const probe = await connection.createChannel();
      probe.on('error', () => undefined);
      await expect(probe.checkQueue(`${exchange}.retired`)).rejects.toThrow(/NOT_FOUND/);
    } finally {
      await connection.close();
    }
  });

  it('keeps a retired queue while an earlier replica still consumes it or events wait in it', async () => {
    const seen: string[] = [];
    const earlier = new EventBus({ url: amqpUrl, exchange, logger, queueExpiresMs: 60_000 });
    earlier.consumer('draining').on(contracts.userCreated, async (event) => {
      seen.push(event.payload.user.full_name);
    });
    await earlier.start();
    const connection = await connect(amqpUrl);
    try {
      // Consumed: kept, and the earlier replica goes on taking its events.
      expect(await retireConsumers({ url: amqpUrl, exchange }, ['draining'])).toEqual(['draining']);
      const channel = await connection.createChannel();
      const record = outboxRecord(contracts.userCreated, { user: user(900, 'late') }, { realmId: 1 });
      channel.publish(exchange, record.routingKey, Buffer.from(JSON.stringify(record.envelope)));
      await eventually(async () => seen.includes('late'));
      await earlier.close();
      // Not consumed any more but holding an event: kept, with the event.
      const waiting = outboxRecord(contracts.userCreated, { user: user(901, 'waiting') }, { realmId: 1 });
      channel.publish(exchange, waiting.routingKey, Buffer.from(JSON.stringify(waiting.envelope)));
      await eventually(async () => (await channel.checkQueue(`${exchange}.draining`)).messageCount === 1);
      expect(await retireConsumers({ url: amqpUrl, exchange }, ['draining'])).toEqual(['draining']);
      expect((await channel.checkQueue(`${exchange}.draining`)).messageCount).toBe(1);
      // Drained: deleted.
      await channel.purgeQueue(`${exchange}.draining`);
      await channel.close();
      expect(await retireConsumers({ url: amqpUrl, exchange }, ['draining'])).toEqual([]);
      const probe = await connection.createChannel();
      probe.on('error', () => undefined);
      await expect(probe.checkQueue(`${exchange}.draining`)).rejects.toThrow(/NOT_FOUND/);
    } finally {
      await connection.close();
    }
  });

  it('applies a redelivered event once', async () => {
    handled.length = 0;
    const record = outboxRecord(contracts.userUpdated, { user: user(9, 'twice') }, { realmId: 1 });
    const connection = await connect(amqpUrl);
    const channel = await connection.createChannel();
    for (let i = 0; i < 2; i++)
      channel.publish(exchange, record.routingKey, Buffer.from(JSON.stringify(record.envelope)));
    await commit([outboxRecord(contracts.userUpdated, { user: user(10, 'after') }, { realmId: 1 })]);
    await eventually(async () => handled.includes('after'));
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM effects WHERE event_id = $1', [record.eventId]);
    expect(rows[0].n).toBe(1);
    expect(handled.filter((n) => n === 'twice')).toEqual(['twice']);
    await connection.close();
  });

  it('retries a handler that fails for a while', async () => {
    handled.length = 0;
    failuresToInject = 2;
    await commit([outboxRecord(contracts.userCreated, { user: user(11, 'retried') }, { realmId: 1 })]);
    await eventually(async () => handled.includes('retried'));
    expect(failuresToInject).toBe(0);
  });

  it('dead-letters an event that does not match its contract, and goes on', async () => {
    handled.length = 0;
    const connection = await connect(amqpUrl);
    const channel = await connection.createChannel();
    const bad = {
      event_id: '00000000-0000-4000-8000-000000000001',
      type: 'user.created',
      occurred_at: '',
      realm_id: 1,
      request_id: null,
      payload: { user: { user_id: 'x' } },
    };
    channel.publish(exchange, 'user.created', Buffer.from(JSON.stringify(bad)));
    await commit([outboxRecord(contracts.userCreated, { user: user(12, 'next') }, { realmId: 1 })]);
    await eventually(async () => handled.includes('next'));
    let dead: false | { content: Buffer } = false;
    await eventually(async () => Boolean((dead = await channel.get(`${exchange}.test.users.dlq`, { noAck: true }))));
    expect(JSON.parse((dead as unknown as { content: Buffer }).content.toString()).event_id).toBe(bad.event_id);
    await connection.close();
  });

  it('does not publish a stored event of a checked contract that breaks it, and counts it', async () => {
    handled.length = 0;
    const before = (await invalidOutboxEvents.get()).values.find((v) => v.labels.routing_key === 'user.created');
    const good = outboxRecord(contracts.userCreated, { user: user(13, 'valid') }, { realmId: 1 });
    // As a statement that completes an envelope in SQL might store it: the id filled in with the wrong type.
    const broken = { ...good.envelope, event_id: '00000000-0000-4000-8000-000000000002' };
    await pool.query(
      `INSERT INTO outbox (event_id, routing_key, envelope)
       VALUES ($1, 'user.created', jsonb_set($2::jsonb, '{payload,user,user_id}', '"x"'))`,
      [broken.event_id, JSON.stringify(broken)],
    );
    await commit([good]);
    await eventually(async () => handled.includes('valid'));
    await eventually(async () => (await pool.query('SELECT count(*)::int AS n FROM outbox')).rows[0].n === 0);
    const after = (await invalidOutboxEvents.get()).values.find((v) => v.labels.routing_key === 'user.created');
    expect((after?.value ?? 0) - (before?.value ?? 0)).toBe(1);
    const { rows } = await pool.query('SELECT count(*)::int AS n FROM effects WHERE event_id = $1', [broken.event_id]);
    expect(rows[0].n).toBe(0);
    expect(handled).toEqual(['valid']);
  });

  it('refuses to build an event whose payload breaks the contract', () => {
    expect(() =>
      outboxRecord(contracts.userCreated, { user: { ...user(1, 'x'), role: 500 as 400 } }, { realmId: 1 }),
    ).toThrow();
  });
});

describe('batch consumers (RabbitMQ)', () => {
  const suffix = randomBytes(4).toString('hex');
  const exchange = `confab.test.batch.${suffix}`;
  const queue = `${exchange}.test.batch`;
  let bus: EventBus;
  let publisher: Awaited<ReturnType<typeof connect>>;
  let channel: Awaited<ReturnType<Awaited<ReturnType<typeof connect>>['createChannel']>>;
  const calls: string[][] = [];
  let hold: Promise<void> | undefined;
  let release: () => void = () => undefined;

  beforeAll(async () => {
    bus = new EventBus({ url: amqpUrl, exchange, logger, queueExpiresMs: 60_000 });
    bus
      .consumer('test.batch', { maxAttempts: 2 })
      .onBatch(contracts.userDeactivated, async (events) => {
        const names = events.map((e) => e.payload.user.full_name);
        if (hold) await hold;
        if (names.includes('poison')) throw new Error('a bad event in the batch');
        calls.push(names);
      })
      .on(contracts.userReactivated, async (event) => {
        calls.push([`single:${event.payload.user.full_name}`]);
      });
    await bus.start();
    publisher = await connect(amqpUrl);
    channel = await publisher.createChannel();
  });

  afterAll(async () => {
    await channel.deleteQueue(queue);
    await channel.deleteQueue(`${queue}.dlq`);
    await channel.deleteExchange(exchange);
    await channel.deleteExchange(`${exchange}.dlx`);
    await publisher.close();
    await bus.close();
  });

  const publish = (contract: typeof contracts.userDeactivated, name: string, id = 100) => {
    expected++;
    const record = outboxRecord(contract, { user: user(id, name) }, { realmId: 1 });
    channel.publish(exchange, record.routingKey, Buffer.from(JSON.stringify(record.envelope)));
    return record.eventId;
  };
  let expected = 0;
  /** Every message published so far has reached the consumer's process. */
  const allDelivered = async () => {
    const metric = await eventsReceived.get();
    return metric.values.find((v) => v.labels.consumer === 'test.batch')?.value === expected;
  };

  it('hands a lone event over at once, and events that waited meanwhile as one batch, in order', async () => {
    calls.length = 0;
    hold = new Promise((resolve) => (release = resolve));
    publish(contracts.userDeactivated, 'first');
    await eventually(allDelivered);
    for (const name of ['a', 'b', 'c']) publish(contracts.userDeactivated, name);
    publish(contracts.userReactivated, 'between');
    publish(contracts.userDeactivated, 'd');
    await eventually(allDelivered);
    hold = undefined;
    release();
    await eventually(async () => calls.flat().includes('d'));
    expect(calls).toEqual([['first'], ['a', 'b', 'c'], ['single:between'], ['d']]);
  });

  it('splits a failing batch so that only the bad event is dead-lettered', async () => {
    calls.length = 0;
    hold = new Promise((resolve) => (release = resolve));
    publish(contracts.userDeactivated, 'start');
    await eventually(allDelivered);
    publish(contracts.userDeactivated, 'good1');
    const poison = publish(contracts.userDeactivated, 'poison');
    publish(contracts.userDeactivated, 'good2');
    await eventually(allDelivered);
    hold = undefined;
    release();
    await eventually(async () => calls.flat().includes('good2'));
    expect(calls).toEqual([['start'], ['good1'], ['good2']]);
    expect(bus.handled('test.batch', poison)).toBe(true);
    let dead: false | { content: Buffer } = false;
    await eventually(async () => Boolean((dead = await channel.get(`${queue}.dlq`, { noAck: true }))));
    expect(JSON.parse((dead as unknown as { content: Buffer }).content.toString()).event_id).toBe(poison);
  });
});
