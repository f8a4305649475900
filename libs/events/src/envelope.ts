import { randomUUID } from 'node:crypto';
import { z } from 'zod';

/** What travels on `confab.events`: an id for de-duplication, the routing key, and the validated payload. */
export interface EventEnvelope<T = unknown> {
  event_id: string;
  type: string;
  occurred_at: string;
  realm_id: number | null;
  /** The id of the HTTP request (or job) that caused the event, for following it through the logs. */
  request_id: string | null;
  payload: T;
}

/** One routing key and the schema of its payload: publishers and consumers import the same contract. */
export interface EventContract<T> {
  readonly type: string;
  readonly schema: z.ZodType<T>;
}

export function defineEvent<S extends z.ZodType>(type: string, schema: S): EventContract<z.infer<S>> {
  if (!/^[a-z_]+\.[a-z_]+$/.test(type)) throw new Error(`event type must be <entity>.<verb>: ${type}`);
  return { type, schema: schema as unknown as z.ZodType<z.infer<S>> };
}

export type PayloadOf<C> = C extends EventContract<infer T> ? T : never;

/** Builds an envelope; the payload is validated so a publisher bug fails where it happens, not downstream. */
export function makeEnvelope<T>(
  contract: EventContract<T>,
  payload: T,
  meta: { realmId: number | null; requestId?: string | null | undefined },
): EventEnvelope<T> {
  return {
    event_id: randomUUID(),
    type: contract.type,
    occurred_at: new Date().toISOString(),
    realm_id: meta.realmId,
    request_id: meta.requestId ?? null,
    payload: contract.schema.parse(payload),
  };
}

/** The row a service inserts into its own `outbox` table in the same transaction as the change. */
export interface OutboxRecord {
  eventId: string;
  routingKey: string;
  envelope: EventEnvelope;
}

export function outboxRecord<T>(
  contract: EventContract<T>,
  payload: T,
  meta: { realmId: number | null; requestId?: string | null | undefined },
): OutboxRecord {
  const envelope = makeEnvelope(contract, payload, meta);
  return { eventId: envelope.event_id, routingKey: envelope.type, envelope };
}

const envelopeSchema = z.object({
  event_id: z.string().uuid(),
  type: z.string(),
  occurred_at: z.string(),
  realm_id: z.number().int().nullable(),
  request_id: z.string().nullable().default(null),
  payload: z.unknown(),
});

/** Parses and validates a received message against its contract; throws on anything malformed. */
export function parseEnvelope<T>(contract: EventContract<T>, raw: unknown): EventEnvelope<T> {
  const envelope = envelopeSchema.parse(raw);
  if (envelope.type !== contract.type) throw new Error(`expected ${contract.type}, got ${envelope.type}`);
  return { ...envelope, payload: contract.schema.parse(envelope.payload) };
}
