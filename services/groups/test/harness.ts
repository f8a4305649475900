import { randomBytes } from 'node:crypto';
import { contracts, EventBus, outboxRecord, OutboxRelay, type EventContract, type EventEnvelope } from '@confab/events';
import { createLogger } from '@confab/logging';
import { LOCAL_DEFAULTS, serviceDatabase } from '@confab/devkit';
import { registerConsumers } from '../src/events/consumers';
import { PrismaGroupsDatabase } from '../src/repositories/groups-database';
import { createPrisma } from '../src/repositories/prisma';

const AMQP = process.env.AMQP_URL ?? LOCAL_DEFAULTS.amqpUrl;

export interface Received<T = unknown> {
  type: string;
  payload: T;
  at: number;
}

/**
 * The groups service's database, consumers and outbox relay against real PostgreSQL and RabbitMQ, on a fresh
 * database and a private exchange; `publish` plays the settings service, `received` collects what groups published.
 */
export class Harness {
  readonly received: Received[] = [];
  db!: PrismaGroupsDatabase;
  private prisma: ReturnType<typeof createPrisma> | undefined;
  private bus: EventBus | undefined;
  private listener: EventBus | undefined;
  private relay: OutboxRelay | undefined;
  private database: { url: string; drop: () => Promise<void> } | undefined;
  private readonly exchange = `confab.events.int.${randomBytes(4).toString('hex')}`;

  async start(): Promise<void> {
    this.database = await serviceDatabase('groups', 'events');
    const url = this.database.url;
    const logger = createLogger({ name: 'groups-int', level: 'silent' });
    const prisma = (this.prisma = createPrisma(url, 4));
    const bus = (this.bus = new EventBus({ url: AMQP, exchange: this.exchange, logger, queueExpiresMs: 60_000 }));
    const relay = (this.relay = new OutboxRelay({ databaseUrl: url, bus, logger, pollIntervalMs: 50 }));
    this.db = new PrismaGroupsDatabase(prisma, () => relay.kick());
    registerConsumers(bus, this.db);
    const listener = (this.listener = new EventBus({ url: AMQP, exchange: this.exchange, logger }));
    const collect = (event: EventEnvelope<unknown>) => {
      this.received.push({ type: event.type, payload: event.payload, at: Date.now() });
      return Promise.resolve();
    };
    listener
      .consumer('test.listener', { perProcess: true })
      .on(contracts.groupCreated, collect)
      .on(contracts.groupUpdated, collect)
      .on(contracts.groupMembersChanged, collect);
    await listener.start();
    await bus.start();
    relay.start();
  }

  async stop(): Promise<void> {
    await this.relay?.stop();
    await this.bus?.close();
    await this.listener?.close();
    await this.prisma?.$disconnect();
    await this.database?.drop();
  }

  /** Publishes an event as its owner would and waits until the groups service has handled it. */
  async publish<T>(contract: EventContract<T>, payload: T, realmId: number, eventId?: string): Promise<string> {
    const record = outboxRecord(contract, payload, { realmId });
    if (eventId) {
      record.eventId = eventId;
      record.envelope.event_id = eventId;
    }
    await this.bus!.publish([record]);
    await this.until(() => this.db.isEventProcessed(record.eventId));
    return record.eventId;
  }

  async until(check: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** The first event of this type matching `predicate`, waiting for it to arrive. */
  async find<T>(contract: EventContract<T>, predicate: (payload: T) => boolean): Promise<Received<T>> {
    const [first] = await this.events(contract, predicate);
    return first!;
  }

  /** The events of this type matching `predicate`, in arrival order, once at least `count` arrived. */
  async events<T>(contract: EventContract<T>, predicate: (payload: T) => boolean, count = 1): Promise<Received<T>[]> {
    const matching = () =>
      this.received.filter((e): e is Received<T> => e.type === contract.type && predicate(e.payload as T));
    await this.until(() => matching().length >= count);
    return matching();
  }
}

let nextId = 1000;
export const newId = () => nextId++;

export function realm(realmId: number, overrides: Partial<contracts.RealmRecord> = {}): contracts.RealmRecord {
  return contracts.realmRecord.parse({
    realm_id: realmId,
    string_id: `r${realmId}`,
    name: 'Test organization',
    description: '',
    url: `http://r${realmId}.localhost`,
    date_created: new Date().toISOString(),
    deactivated: false,
    empty_topic_display_name: 'general chat',
    mandatory_topics: false,
    message_content_delete_limit_seconds: 600,
    waiting_period_threshold: 0,
    permissions: {},
    ...overrides,
  });
}

export function user(
  realmId: number,
  userId: number,
  overrides: Partial<contracts.UserRecord> = {},
): contracts.UserRecord {
  return {
    user_id: userId,
    realm_id: realmId,
    email: `user${userId}@example.com`,
    delivery_email: `user${userId}@example.com`,
    full_name: `User ${userId}`,
    role: 400,
    is_bot: false,
    bot_type: null,
    bot_owner_id: null,
    is_active: true,
    timezone: '',
    date_joined: new Date().toISOString(),
    ...overrides,
  };
}
