import { isUnavailable } from '@confab/errors';
import type { Channel, ConfirmChannel, ConsumeMessage } from 'amqplib';
import { FailoverConnection } from './amqp-nodes.js';
import { runWithLogContext, type Logger } from '@confab/logging';
import type { CausalEvent } from '@confab/identity';
import { parseEnvelope, type EventContract, type EventEnvelope, type OutboxRecord } from './envelope.js';
import { eventsHandled, eventsReceived, registerDepthSource } from './metrics.js';
import { FinishedEvents } from './finished.js';
import { declareQueue, type QueueType } from './topology.js';

export interface BusOptions {
  url: string;
  /** The topic exchange (confab.events); its dead-letter exchange is `<exchange>.dlx`. */
  exchange: string;
  logger: Logger;
  /**
   * Deletes a durable queue after this long without consumers (ms). Only for test runs, so queues of a
   * crashed run clean themselves up; never set in production, where a queue must outlive a slow deploy.
   */
  queueExpiresMs?: number | undefined;
  /** The type of the durable queues (topology.ts): `quorum` in a RabbitMQ cluster, `classic` (default) otherwise. */
  queueType?: QueueType | undefined;
}

type Handler<T> = (event: EventEnvelope<T>) => Promise<void>;
type BatchHandler<T> = (events: EventEnvelope<T>[]) => Promise<void>;

type Binding =
  | { contract: EventContract<unknown>; batch: false; handler: Handler<unknown> }
  | { contract: EventContract<unknown>; batch: true; handler: BatchHandler<unknown> };

export interface ConsumerOptions {
  /** Messages the broker may hand over before acknowledgement; handling stays sequential. Default 50. */
  prefetch?: number;
  /** One queue per process that disappears with it (e.g. cache invalidation in every gateway replica). */
  perProcess?: boolean;
  /** Attempts before a failing event goes to the dead-letter queue. Default 10 (about 30 s of backoff). */
  maxAttempts?: number;
  /**
   * One replica at a time takes the queue's events (RabbitMQ's single active consumer), so that they are handled in
   * the order the broker received them however many replicas run; the others stand by and take over when it goes.
   * Without it, replicas compete for the events and two events close together may be handled in either order.
   */
  ordered?: boolean;
  /** Most events of one type handed to a batch handler at once. Default: the prefetch. */
  maxBatch?: number;
}

/** A named consumer: one durable queue bound to the routing keys of its contracts, handled in order. */
export class Consumer {
  readonly bindings = new Map<string, Binding>();

  constructor(
    readonly name: string,
    readonly options: ConsumerOptions,
  ) {}

  on<T>(contract: EventContract<T>, handler: Handler<T>): this {
    this.bindings.set(contract.type, { contract, batch: false, handler: handler as Handler<unknown> });
    return this;
  }

  /**
   * Handles events of this type in batches: consecutive deliveries that were waiting while the previous ones were
   * handled go to one call (a lone event goes at once, alone), in delivery order. The handler must be idempotent
   * for the whole batch: on failure the batch is retried, then its events one by one, so a bad one fails alone.
   */
  onBatch<T>(contract: EventContract<T>, handler: BatchHandler<T>): this {
    this.bindings.set(contract.type, { contract, batch: true, handler: handler as BatchHandler<unknown> });
    return this;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A durable consumer's queue (its dead letters' queue is `deadLetterQueueOf` it; both are what `retireConsumers` deletes). */
export const queueNameOf = (exchange: string, consumer: string): string => `${exchange}.${consumer}`;

/** An envelope already in JSON, as the outbox relay reads it from its rows. */
type RawEnvelope = { eventId: string; routingKey: string; json: string };

/**
 * RabbitMQ for Confab's events: publishing with publisher confirms (used by the outbox relay), and consumers
 * with validation, in-order handling, retries with backoff, and dead-lettering. The connection recovers by
 * itself; channels, topology and consumers are re-created on every reconnect.
 */
export class EventBus {
  private model: FailoverConnection | undefined;
  private publishChannel: ConfirmChannel | undefined;
  private readonly consumers: Consumer[] = [];
  private generation = 0;
  private connected = false;
  private stopped = false;
  private readonly log: Logger;
  private readonly finishedEvents = new FinishedEvents();

  constructor(private readonly options: BusOptions) {
    this.log = options.logger.child({ component: 'event-bus' });
  }

  get dlx(): string {
    return `${this.options.exchange}.dlx`;
  }

  queueName(consumer: string): string {
    return queueNameOf(this.options.exchange, consumer);
  }

  isConnected(): boolean {
    return this.connected && this.publishChannel !== undefined;
  }

  consumer(name: string, options: ConsumerOptions = {}): Consumer {
    const consumer = new Consumer(name, options);
    this.consumers.push(consumer);
    return consumer;
  }

  /** Whether `consumer` in this process has finished with the event. */
  handled(consumer: string, eventId: string): boolean {
    return this.finishedEvents.at(consumer, eventId) !== undefined;
  }

  /** A mark of this process's progress: what its consumers finish from now on is `handledSince` the mark. */
  progress(): number {
    return this.finishedEvents.progress;
  }

  /**
   * Whether a consumer of this process finished one of these events after `mark`: a state read before then (a
   * cache entry the handler has since dropped) may predate the event.
   */
  handledSince(events: readonly CausalEvent[], mark: number): boolean {
    return events.some((e) =>
      this.consumers.some((c) => c.bindings.has(e.type) && (this.finishedEvents.at(c.name, e.id) ?? 0) > mark),
    );
  }

  /** The (consumer, event) pairs of this process that still have to handle these events (by their routing keys). */
  unhandled(events: readonly CausalEvent[]): { consumer: string; eventId: string }[] {
    return events.flatMap((event) =>
      this.consumers
        .filter((c) => c.bindings.has(event.type) && !this.handled(c.name, event.id))
        .map((c) => ({ consumer: c.name, eventId: event.id })),
    );
  }

  /** Resolves when any consumer of this process finishes with an event, or after `ms`. */
  nextHandled(ms: number): Promise<void> {
    return this.finishedEvents.next(ms);
  }

  private finished(consumer: string, eventId: string): void {
    this.finishedEvents.add(consumer, eventId);
  }

  /** Connects (waiting up to `timeoutMs` for the first connection; recovery continues in the background). */
  async start(timeoutMs = 15_000): Promise<void> {
    // AMQP_URL may list the nodes of a cluster: a lost connection reconnects to the next one that answers.
    const model = new FailoverConnection(this.options.url, { initialDelay: 200, maxDelay: 5000 });
    this.model = model;
    model.on('connect', () => {
      this.onConnect().catch((err: unknown) => {
        this.log.error({ err }, 'setting up channels failed');
      });
    });
    model.on('disconnect', (err: Error) => {
      this.connected = false;
      this.publishChannel = undefined;
      this.log.warn({ err: err.message }, 'RabbitMQ connection lost; reconnecting');
    });
    model.on('error', (err: Error) => this.log.warn({ err: err.message }, 'RabbitMQ connection error'));
    model.start();
    const deadline = Date.now() + timeoutMs;
    while (!this.isConnected() && Date.now() < deadline) await sleep(50);
    if (!this.isConnected()) this.log.warn('RabbitMQ not reachable yet; continuing to retry');
  }

  private async onConnect(): Promise<void> {
    if (!this.model || this.stopped) return;
    const generation = ++this.generation;
    await this.openPublishChannel(generation);
    for (const consumer of this.consumers) await this.startConsumer(consumer, generation);
    this.connected = true;
    this.log.info({ exchange: this.options.exchange }, 'connected to RabbitMQ');
  }

  /** A channel can close on its own (e.g. after a protocol error) while the connection lives: reopen it. */
  private reopenLater(generation: number, what: string, reopen: () => Promise<void>): void {
    setTimeout(() => {
      if (this.stopped || generation !== this.generation) return;
      reopen().catch((err: unknown) => this.log.error({ err, what }, 'reopening channel failed'));
    }, 200).unref();
  }

  private async openPublishChannel(generation: number): Promise<void> {
    if (!this.model) return;
    const channel = await this.model.createConfirmChannel();
    channel.on('error', (err: Error) => this.log.warn({ err: err.message }, 'publish channel error'));
    channel.on('close', () => {
      if (this.publishChannel !== channel) return;
      this.publishChannel = undefined;
      this.reopenLater(generation, 'publish', () => this.openPublishChannel(generation));
    });
    await channel.assertExchange(this.options.exchange, 'topic', { durable: true });
    await channel.assertExchange(this.dlx, 'direct', { durable: true });
    if (generation === this.generation) this.publishChannel = channel;
  }

  private async startConsumer(consumer: Consumer, generation: number): Promise<void> {
    if (!this.model) return;
    const channel = await this.model.createChannel();
    channel.on('error', (err: Error) =>
      this.log.warn({ err: err.message, consumer: consumer.name }, 'consumer channel error'),
    );
    channel.on('close', () => {
      this.reopenLater(generation, consumer.name, () => this.startConsumer(consumer, generation));
    });
    const perProcess = consumer.options.perProcess ?? false;
    const q = await declareQueue(
      channel,
      { ...this.options, singleActive: consumer.options.ordered ?? false },
      perProcess ? null : this.queueName(consumer.name),
    );
    for (const type of consumer.bindings.keys()) await channel.bindQueue(q.queue, this.options.exchange, type);
    if (!perProcess) registerDepthSource(consumer.name, async () => (await channel.checkQueue(q.queue)).messageCount);
    await channel.prefetch(consumer.options.prefetch ?? 50);

    // Handle deliveries one after another, in the order the broker delivered them; what arrives meanwhile waits in
    // `pending`, where consecutive events of a batch-handled type are taken together.
    const pending: ConsumeMessage[] = [];
    let draining = false;
    const drain = async () => {
      while (pending.length > 0) {
        const first = pending[0]!;
        const binding = consumer.bindings.get(first.fields.routingKey);
        if (binding?.batch) {
          const limit = consumer.options.maxBatch ?? consumer.options.prefetch ?? 50;
          let n = 1;
          while (n < pending.length && n < limit && pending[n]!.fields.routingKey === first.fields.routingKey) n++;
          await this.handleBatch(channel, consumer, binding, pending.splice(0, n));
        } else {
          await this.handle(channel, consumer, pending.shift()!);
        }
      }
      draining = false;
    };
    await channel.consume(q.queue, (msg) => {
      if (!msg) return;
      eventsReceived.inc({ consumer: consumer.name });
      pending.push(msg);
      if (draining) return;
      draining = true;
      drain().catch((err: unknown) => this.log.error({ err, consumer: consumer.name }, 'consumer loop failed'));
    });
  }

  /** The envelope of a delivery, or null after dead-lettering one that is not valid for its contract. */
  private parse(channel: Channel, consumer: Consumer, msg: ConsumeMessage): EventEnvelope<unknown> | null {
    const binding = consumer.bindings.get(msg.fields.routingKey);
    try {
      if (!binding) throw new Error(`no handler for ${msg.fields.routingKey}`);
      return parseEnvelope(binding.contract, JSON.parse(msg.content.toString('utf8')));
    } catch (err) {
      this.log.error(
        { err, consumer: consumer.name, routing_key: msg.fields.routingKey },
        'invalid event; dead-lettered',
      );
      eventsHandled.inc({ consumer: consumer.name, outcome: 'dead_lettered' });
      safely(() => channel.nack(msg, false, false));
      return null;
    }
  }

  private async handle(channel: Channel, consumer: Consumer, msg: ConsumeMessage): Promise<void> {
    const envelope = this.parse(channel, consumer, msg);
    if (!envelope) return;
    const binding = consumer.bindings.get(msg.fields.routingKey)!;
    const run = binding.batch
      ? () => binding.handler([envelope])
      : () => runWithLogContext({ requestId: envelope.request_id ?? undefined }, () => binding.handler(envelope));
    await this.attempt(consumer, [envelope], run, (ok) => {
      safely(() => (ok ? channel.ack(msg) : channel.nack(msg, false, false)));
      this.finished(consumer.name, envelope.event_id);
    });
  }

  private async handleBatch(
    channel: Channel,
    consumer: Consumer,
    binding: Extract<Binding, { batch: true }>,
    messages: ConsumeMessage[],
  ): Promise<void> {
    if (messages.length === 1) return this.handle(channel, consumer, messages[0]!);
    const valid: { msg: ConsumeMessage; envelope: EventEnvelope<unknown> }[] = [];
    for (const msg of messages) {
      const envelope = this.parse(channel, consumer, msg);
      if (envelope) valid.push({ msg, envelope });
    }
    const envelopes = valid.map((v) => v.envelope);
    // A few quick attempts for the batch together; a batch that keeps failing is split so that a bad event fails
    // alone and the good ones go through.
    const together = await this.attempt(
      consumer,
      envelopes,
      () => binding.handler(envelopes),
      (ok) => {
        if (!ok) return;
        // One acknowledgement for the whole batch (every delivery up to its last): deliveries are handled in the
        // order they came, so each earlier one on this channel is already settled (acked, or a bad one rejected).
        const last = valid[valid.length - 1];
        if (last) safely(() => channel.ack(last.msg, true));
        for (const { envelope } of valid) this.finished(consumer.name, envelope.event_id);
      },
      3,
    );
    if (!together) for (const { msg } of valid) await this.handle(channel, consumer, msg);
  }

  /**
   * Runs `run` until it succeeds or the attempts are used up (backoff between them), then calls `settle` with the
   * outcome; true when it succeeded. With `attempts` given, a final failure is left to the caller (not settled).
   */
  private async attempt(
    consumer: Consumer,
    envelopes: EventEnvelope<unknown>[],
    run: () => Promise<void>,
    settle: (ok: boolean) => void,
    attempts?: number,
  ): Promise<boolean> {
    const maxAttempts = attempts ?? consumer.options.maxAttempts ?? 10;
    const ids = envelopes.map((e) => e.event_id);
    // Failures of the handler's own count towards dead-lettering; a dependency that is down (PostgreSQL during a
    // failover, Redis, another service answering 503) does not: the event waits for it, however long it takes,
    // rather than being dead-lettered after half a minute and never applied.
    let counted = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        await run();
        settle(true);
        eventsHandled.inc({ consumer: consumer.name, outcome: 'ok' }, envelopes.length);
        return true;
      } catch (err) {
        if (!isUnavailable(err)) counted++;
        if (counted >= maxAttempts || this.stopped) {
          if (attempts !== undefined && !this.stopped) return false;
          this.log.error(
            { err, consumer: consumer.name, event_ids: ids, type: envelopes[0]?.type },
            'event handling failed; dead-lettered',
          );
          // Never going to be applied: nobody should wait for it (settle marks it finished).
          settle(false);
          eventsHandled.inc({ consumer: consumer.name, outcome: 'dead_lettered' }, envelopes.length);
          return false;
        }
        eventsHandled.inc({ consumer: consumer.name, outcome: 'retried' }, envelopes.length);
        this.log.warn({ err, consumer: consumer.name, event_ids: ids, attempt }, 'event handling failed; retrying');
        await sleep(Math.min(5000, 100 * 2 ** (attempt - 1)));
      }
    }
  }

  /** Publishes the records, resolved once the broker confirmed each (`persistent: false`: kept in memory only). */
  async publish(records: readonly OutboxRecord[], options: { persistent?: boolean } = {}): Promise<void> {
    await this.publishRaw(
      records.map((r) => ({ eventId: r.eventId, routingKey: r.routingKey, json: JSON.stringify(r.envelope) })),
      options,
    );
  }

  /** Publishes envelopes already in JSON (the outbox relay's rows) and waits once for the broker's confirms. */
  async publishRaw(records: readonly RawEnvelope[], { persistent = true } = {}): Promise<void> {
    const channel = this.publishChannel;
    if (!channel) throw new Error('RabbitMQ is not connected');
    for (const record of records) {
      channel.publish(this.options.exchange, record.routingKey, Buffer.from(record.json), {
        persistent,
        contentType: 'application/json',
        messageId: record.eventId,
        type: record.routingKey,
      });
    }
    await channel.waitForConfirms();
  }

  async close(): Promise<void> {
    this.stopped = true;
    this.connected = false;
    await this.model?.close().catch(() => undefined);
  }
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // The channel closed under us; the broker will redeliver, and consumers de-duplicate.
  }
}
