import type { CausalEvent } from '@confab/identity';

/**
 * Read-your-writes across an internal call (docs/architecture.md, "Identity"): a service calling another for a user's
 * request (the events service gathering a register's state) names the user and their own recent events in this
 * header; the called service, trusting it only from a signed service identity, applies them before answering, as
 * it would before answering the user's own request.
 */
export const CAUSAL_HEADER = 'x-confab-causal';

export interface CausalFor {
  userId: number;
  realmId: number;
  events: readonly CausalEvent[];
}

export const causalHeader = (who: CausalFor): string =>
  JSON.stringify({ u: who.userId, r: who.realmId, e: who.events.map((e) => [e.type, e.id]) });

/** The header's user and events; null when it is absent or not of that shape. */
export function causalFromHeader(value: string | string[] | undefined): CausalFor | null {
  if (typeof value !== 'string' || value.length > 16_384) return null;
  try {
    const { u, r, e } = JSON.parse(value) as { u?: unknown; r?: unknown; e?: unknown };
    if (!Number.isSafeInteger(u) || !Number.isSafeInteger(r) || !Array.isArray(e)) return null;
    const events: CausalEvent[] = [];
    for (const pair of e) {
      if (!Array.isArray(pair) || typeof pair[0] !== 'string' || typeof pair[1] !== 'string') return null;
      events.push({ type: pair[0], id: pair[1] });
    }
    return { userId: u as number, realmId: r as number, events };
  } catch {
    return null;
  }
}
