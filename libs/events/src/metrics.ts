import { Counter, Gauge } from 'prom-client';

export const eventsPublished = new Counter({
  name: 'events_published_total',
  help: 'Events published to the exchange (after broker confirmation), by routing key',
  labelNames: ['routing_key'] as const,
});

export const invalidOutboxEvents = new Counter({
  name: 'outbox_invalid_events_total',
  help: 'Outbox rows the relay did not publish because they do not conform to their contract, by routing key',
  labelNames: ['routing_key'] as const,
});

export const eventsHandled = new Counter({
  name: 'events_handled_total',
  help: 'Events handled by a consumer, by outcome (ok, retried, dead_lettered)',
  labelNames: ['consumer', 'outcome'] as const,
});

export const eventsReceived = new Counter({
  name: 'events_received_total',
  help: 'Deliveries a consumer received from the broker (handled or still waiting in its process)',
  labelNames: ['consumer'] as const,
});

/** Outbox lag and consumer queue depths are read when Prometheus scrapes, from these registered sources. */
const lagSources = new Set<() => Promise<number>>();
const depthSources = new Map<string, () => Promise<number>>();

new Gauge({
  name: 'outbox_lag_seconds',
  help: 'Age of the oldest event committed but not yet published',
  async collect() {
    let max = 0;
    for (const source of lagSources) max = Math.max(max, await source().catch(() => 0));
    this.set(max);
  },
});

new Gauge({
  name: 'event_queue_depth',
  help: 'Messages waiting in a consumer queue',
  labelNames: ['consumer'] as const,
  async collect() {
    for (const [consumer, source] of depthSources) {
      const depth = await source().catch(() => -1);
      if (depth >= 0) this.set({ consumer }, depth);
    }
  },
});

export function registerLagSource(source: () => Promise<number>): void {
  lagSources.add(source);
}

export function registerDepthSource(consumer: string, source: () => Promise<number>): void {
  depthSources.set(consumer, source);
}
