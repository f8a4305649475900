import { invalid } from '@confab/errors';
import { p, ParamIssue, t, type Schema } from '@confab/http';
import { CAPABILITY_NAMES } from '../domain/descriptor.js';
import type { RegisterInput } from '../domain/register.js';

const KNOWN_CAPABILITIES = Object.values(CAPABILITY_NAMES);

/** Zulip's ClientCapabilities: a JSON object whose known keys are booleans; other keys are ignored. */
const capabilities: Schema<Record<string, unknown>> = {
  parse(value, loc) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ParamIssue('dict_type', loc);
    const out = value as Record<string, unknown>;
    for (const name of KNOWN_CAPABILITIES) {
      if (name in out && typeof out[name] !== 'boolean') throw new ParamIssue('bool_type', [...loc, name]);
    }
    return out;
  },
};

const narrowTerm = t.refine(t.list(t.string()), (term) =>
  term.length === 2 ? undefined : '{var_name} has incorrect length; should be 2',
);

/** The parameters that describe a new queue (POST /register, and GET /events without a queue_id). */
export const queueParams = {
  apply_markdown: p.bool().default(false),
  client_gravatar: p.bool().default(true),
  slim_presence: p.bool().default(false),
  all_public_streams: p.bool().default(false),
  event_types: p.json(t.nullable(t.list(t.string()))).default(null),
  // python `zulip`'s register(None, None) sends narrow as JSON null, which Zulip reads as no narrow.
  narrow: p.json(t.nullable(t.list(narrowTerm))).default([]),
  client_capabilities: p.json(capabilities).default({}),
};

/** Zulip's "mobile" idle_queue_timeout: mobile apps keep their queue for 12 hours between polls. */
export const MOBILE_IDLE_QUEUE_SECONDS = 12 * 3600;
const MAX_IDLE_QUEUE_SECONDS = 7 * 24 * 3600;

/** idle_queue_timeout: seconds, or "mobile"; the apps send it JSON-encoded ('"mobile"'), others plain. */
export function parseIdleQueueTimeout(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // A bare word, such as mobile.
  }
  if (value === 'mobile') return MOBILE_IDLE_QUEUE_SECONDS;
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return Math.min(value, MAX_IDLE_QUEUE_SECONDS);
  throw invalid('idle_queue_timeout is not an integer');
}

export const registerParams = {
  ...queueParams,
  include_subscribers: p.json(t.union(t.bool(), t.literal('partial'))).default(false),
  presence_history_limit_days: p.int().optional(),
  presence_last_update_id: p.int().optional(),
  fetch_event_types: p.json(t.nullable(t.list(t.string()))).default(null),
  queue_lifespan_secs: p.int().default(0),
  idle_queue_timeout: p.string().optional(),
};

type QueueValues = {
  apply_markdown: boolean;
  client_gravatar: boolean;
  slim_presence: boolean;
  all_public_streams: boolean;
  event_types: string[] | null;
  narrow: string[][] | null;
  client_capabilities: Record<string, unknown>;
};

export function registerInput(
  values: QueueValues & {
    include_subscribers?: boolean | 'partial';
    fetch_event_types?: string[] | null;
    idle_queue_timeout?: string;
    presence_history_limit_days?: number | undefined;
  },
): RegisterInput {
  const idle = parseIdleQueueTimeout(values.idle_queue_timeout);
  return {
    ...(idle === undefined ? {} : { idleQueueTimeoutSeconds: idle }),
    ...(values.presence_history_limit_days === undefined
      ? {}
      : { presenceHistoryLimitDays: values.presence_history_limit_days }),
    applyMarkdown: values.apply_markdown,
    clientGravatar: values.client_gravatar,
    slimPresence: values.slim_presence,
    includeSubscribers: values.include_subscribers ?? false,
    eventTypes: values.event_types,
    fetchEventTypes: values.fetch_event_types ?? null,
    allPublicStreams: values.all_public_streams,
    clientCapabilities: values.client_capabilities,
    narrow: (values.narrow ?? []).map((term) => [term[0]!, term[1]!] as [string, string]),
  };
}
