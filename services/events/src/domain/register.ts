import { invalid, rateLimited } from '@confab/errors';
import { ROLE_GUEST, type UserIdentity } from '@confab/identity';
import type { StateProviders } from '../state/providers.js';
import type { QueueStore } from '../store/queues.js';
import { DEFAULT_EMPTY_TOPIC_DISPLAY_NAME, type ReadModel } from '../store/readmodel.js';
import { absentFeatureState } from './absent-features.js';
import { capabilitiesFrom, type QueueDescriptor } from './descriptor.js';
import { applyLegacyForms, typesToFetch } from './legacy-state.js';
import { checkNarrowForEvents } from './narrow.js';

/** Zulip API compatibility level; the settings service's answer wins when it gives one. */
export const FEATURE_LEVEL = 496;
export const SERVICE_VERSION = '11.0-confab-0.1.0';

/** Zulip's defaults for its typing-notification protocol, in ms. */
export const TYPING = {
  server_typing_started_expiry_period_milliseconds: 15_000,
  server_typing_stopped_wait_period_milliseconds: 5_000,
  server_typing_started_wait_period_milliseconds: 10_000,
};

export interface RegisterInput {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  slimPresence: boolean;
  includeSubscribers: boolean | 'partial';
  eventTypes: string[] | null;
  fetchEventTypes: string[] | null;
  allPublicStreams: boolean;
  clientCapabilities: Record<string, unknown>;
  narrow: [string, string][];
  /** The client's idle_queue_timeout, in seconds. */
  idleQueueTimeoutSeconds?: number;
  /** How many days of presence history the client wants. */
  presenceHistoryLimitDays?: number;
}

export interface RegisterDeps {
  store: QueueStore;
  /** Live queues one user may hold (0: no cap). */
  maxQueuesPerUser: number;
  readModel: ReadModel;
  providers: StateProviders;
  longpollTimeoutSeconds: number;
}

/** Creates the queue a client will poll (the queue part of POST /register and of GET /events without one). */
export async function allocateQueue(
  deps: Pick<RegisterDeps, 'store' | 'maxQueuesPerUser'>,
  who: UserIdentity,
  input: RegisterInput,
): Promise<string> {
  checkNarrowForEvents(input.narrow);
  if (input.allPublicStreams && who.role === ROLE_GUEST) throw invalid('User not authorized for this query');
  const descriptor: QueueDescriptor = {
    userId: who.userId,
    realmId: who.realmId,
    role: who.role,
    eventTypes: input.eventTypes,
    narrow: input.narrow,
    allPublicStreams: input.allPublicStreams,
    applyMarkdown: input.applyMarkdown,
    clientGravatar: input.clientGravatar,
    slimPresence: input.slimPresence,
    capabilities: capabilitiesFrom(input.clientCapabilities),
    ...(input.idleQueueTimeoutSeconds === undefined ? {} : { idleTimeoutMs: input.idleQueueTimeoutSeconds * 1000 }),
  };
  const created = await deps.store.createCapped(descriptor, deps.maxQueuesPerUser);
  if ('queueId' in created) return created.queueId;
  // At the cap: Zulip's rate-limit answer, which every client backs off from; an idle queue frees a place when it
  // expires (Retry-After says when the soonest one does).
  throw rateLimited(created.retryAfterMs === null ? 1 : Math.max(1, created.retryAfterMs / 1000));
}

/**
 * POST /register: the queue first, then the initial state from the owning services, so nothing that happens
 * while the state is gathered is missed (a client may see such a change twice, never not at all).
 */
export async function register(deps: RegisterDeps, who: UserIdentity, input: RegisterInput) {
  const queueId = await allocateQueue(deps, who, input);
  const wanted = input.fetchEventTypes ?? input.eventTypes;
  const capabilities = capabilitiesFrom(input.clientCapabilities);
  let fragments: Record<string, unknown>;
  try {
    fragments = await deps.providers.gather({
      userId: who.userId,
      realmId: who.realmId,
      causal: who.causal,
      queueId,
      fetchEventTypes: typesToFetch(wanted, capabilities),
      applyMarkdown: input.applyMarkdown,
      clientGravatar: input.clientGravatar,
      includeSubscribers: input.includeSubscribers,
      // Zulip answers presence in the modern (slim) form to clients of the modern presence events.
      slimPresence: input.slimPresence || capabilities.simplifiedPresenceEvents,
      presenceHistoryLimitDays: input.presenceHistoryLimitDays,
      clientCapabilities: input.clientCapabilities,
      narrow: input.narrow,
    });
  } catch (err) {
    await deps.store.delete(queueId, who.userId);
    throw err;
  }
  const state: Record<string, unknown> = {
    queue_id: queueId,
    zulip_version: SERVICE_VERSION,
    zulip_feature_level: FEATURE_LEVEL,
    zulip_merge_base: '',
    max_message_length: 10_000,
    max_topic_length: 60,
    realm_empty_topic_display_name:
      (await deps.readModel.emptyTopicDisplayName(who.realmId)) || DEFAULT_EMPTY_TOPIC_DISPLAY_NAME,
    ...absentFeatureState(wanted),
    ...fragments,
    event_queue_longpoll_timeout_seconds: deps.longpollTimeoutSeconds,
    ...TYPING,
    last_event_id: -1,
  };
  applyLegacyForms(state, {
    wanted,
    capabilities,
    emptyTopicDisplayName: state.realm_empty_topic_display_name as string,
  });
  return state;
}
