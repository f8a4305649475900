import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * An event a user's own request caused (docs/architecture.md, read-your-writes). The gateway carries a user's recent
 * ones in the identity token; a service that keeps a copy of the facts they change waits until it has applied them
 * before acting for that user.
 */
export interface CausalEvent {
  /** The routing key, e.g. `user_settings.changed`. */
  type: string;
  /** The event's UUID. */
  id: string;
  /** The user a `user.*` event is about, when not the one whose log holds it (an administrator's change of another). */
  subject?: number;
}

const scope = new AsyncLocalStorage<CausalEvent[]>();

/** Runs one request's work and returns the events its committed transactions published through the outbox. */
export async function collectCausalEvents<T>(fn: () => Promise<T>): Promise<{ result: T; events: CausalEvent[] }> {
  const events: CausalEvent[] = [];
  const result = await scope.run(events, fn);
  return { result, events };
}

/** Called right after a transaction that wrote outbox rows commits; outside a request it does nothing. */
export function noteCausalEvents(events: readonly CausalEvent[]): void {
  scope.getStore()?.push(...events);
}
