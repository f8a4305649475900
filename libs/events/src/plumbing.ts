import type { Logger } from '@confab/logging';
import { EventBus } from './bus.js';
import type { QueueType } from './topology.js';
import type { CausalEvent } from '@confab/identity';
import { causalGate, type CausalOutcome } from './causal.js';
import { processedEvents, type RawQuerier } from './dedupe.js';
import type { EventContract } from './envelope.js';
import { OutboxRelay } from './relay.js';

export interface ServiceEventsConfig {
  amqp: { url: string; exchange: string; queueType?: QueueType };
  /** How long an idle auto-delete queue of this process outlives it, in ms. */
  queueExpiresMs?: number | undefined;
  /**
   * The service's database and how often its outbox is polled, when it writes events of its own; `validate` are
   * the contracts the relay checks before publishing (RelayOptions.validate).
   */
  outbox?: { databaseUrl: string; pollIntervalMs: number; validate?: readonly EventContract<unknown>[] };
}

/**
 * A service's event plumbing (docs/architecture.md "Facts cross services by events"): its bus, and for a service
 * that writes events, the outbox relay that publishes them. `kick` wakes the relay after a commit; `shutdown` are
 * the steps that stop them, the relay first.
 */
export class ServiceEvents {
  readonly bus: EventBus;
  readonly relay: OutboxRelay | null;

  constructor(config: ServiceEventsConfig, logger: Logger) {
    this.bus = new EventBus({
      url: config.amqp.url,
      exchange: config.amqp.exchange,
      logger,
      queueExpiresMs: config.queueExpiresMs,
      queueType: config.amqp.queueType,
    });
    this.relay = config.outbox
      ? new OutboxRelay({
          databaseUrl: config.outbox.databaseUrl,
          bus: this.bus,
          logger,
          pollIntervalMs: config.outbox.pollIntervalMs,
          validate: config.outbox.validate,
        })
      : null;
  }

  /** A service that writes events: its database (`db.url`) holds the outbox the relay publishes. */
  static withOutbox(
    config: Omit<ServiceEventsConfig, 'outbox'> & { db: { url: string }; outboxPollMs: number },
    logger: Logger,
    validate?: readonly EventContract<unknown>[],
  ): ServiceEvents & { relay: OutboxRelay } {
    const events = new ServiceEvents(
      { ...config, outbox: { databaseUrl: config.db.url, pollIntervalMs: config.outboxPollMs, validate } },
      logger,
    );
    return events as ServiceEvents & { relay: OutboxRelay };
  }

  readonly kick = (): void => this.relay?.kick();

  /**
   * The read-your-writes check of this process (docs/architecture.md "Read-your-writes"): whether a user's own
   * events have been applied here, waiting up to `timeoutMs`; the service's processed-events table tells what
   * another replica applied.
   */
  causalGate(db: RawQuerier, timeoutMs: number): (events: readonly CausalEvent[]) => Promise<CausalOutcome> {
    return causalGate({ bus: this.bus, processedElsewhere: (ids) => processedEvents(db, ids), timeoutMs });
  }

  /** Starts consuming (consumers must be registered first) and publishing. */
  async start(): Promise<void> {
    await this.bus.start();
    this.relay?.start();
  }

  get shutdown(): [string, () => Promise<unknown>][] {
    const relay = this.relay;
    const bus: [string, () => Promise<unknown>] = ['event bus', () => this.bus.close()];
    return relay ? [['outbox relay', () => relay.stop()], bus] : [bus];
  }
}
