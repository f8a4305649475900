import type { CausalEvent } from '@confab/identity';
import { serviceUnavailable } from '@confab/errors';
import { ServiceClient, type InternalAnswer } from '@confab/http';
import type { Logger } from '@confab/logging';

/** What /register passes on to the services that own the initial state (see ../../README.md). */
export interface StateQuery {
  userId: number;
  realmId: number;
  /**
   * The user's own recent events (their identity's causal log): each owning service answers only once it has applied
   * them, so a register after the user's own change shows it (read-your-writes, docs/architecture.md).
   */
  causal?: readonly CausalEvent[] | undefined;
  queueId: string;
  /** null: everything. */
  fetchEventTypes: string[] | null;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  includeSubscribers: boolean | 'partial';
  slimPresence: boolean;
  presenceHistoryLimitDays?: number | undefined;
  clientCapabilities: Record<string, unknown>;
  narrow: [string, string][];
}

/** Envelope fields of a provider's answer, and fields only the events service decides. */
const NOT_STATE = new Set(['result', 'msg', 'ignored_parameters_unsupported', 'queue_id', 'last_event_id']);

export interface StateProviders {
  gather(query: StateQuery): Promise<Record<string, unknown>>;
}

/**
 * The internal initial-state protocol: each owning service answers `GET /internal/users/{user_id}/initial-state`
 * with the fragments it owns as top-level fields. All are asked at once; a service without the route (404) adds
 * nothing, one that fails or is too slow fails the registration (a client must not believe partial state).
 */
export class HttpStateProviders implements StateProviders {
  private readonly clients: [string, ServiceClient][];

  constructor(
    providers: Record<string, string>,
    secret: string,
    timeoutMs: number,
    private readonly log: Logger,
  ) {
    this.clients = Object.keys(providers)
      .sort()
      .map((name) => [name, new ServiceClient({ caller: 'events', baseUrl: providers[name]!, secret, timeoutMs })]);
  }

  private async fetchOne(name: string, client: ServiceClient, query: StateQuery): Promise<Record<string, unknown>> {
    let answer: InternalAnswer;
    try {
      answer = await client.request('GET', `/users/${query.userId}/initial-state`, {
        ...(query.causal?.length
          ? { causal: { userId: query.userId, realmId: query.realmId, events: query.causal } }
          : {}),
        query: {
          queue_id: query.queueId,
          apply_markdown: query.applyMarkdown,
          client_gravatar: query.clientGravatar,
          // A JSON value, also when it is the string "partial".
          include_subscribers: JSON.stringify(query.includeSubscribers),
          slim_presence: query.slimPresence,
          presence_history_limit_days: query.presenceHistoryLimitDays,
          client_capabilities: query.clientCapabilities,
          narrow: query.narrow,
          fetch_event_types: query.fetchEventTypes ?? undefined,
        },
      });
    } catch (err) {
      this.log.warn({ err, provider: name }, 'initial state unavailable');
      throw serviceUnavailable();
    }
    if (answer.status === 404) return {};
    if (answer.status !== 200) {
      this.log.warn({ provider: name, status: answer.status }, 'initial state request failed');
      throw serviceUnavailable();
    }
    return Object.fromEntries(Object.entries(answer.body).filter(([key]) => !NOT_STATE.has(key)));
  }

  async gather(query: StateQuery): Promise<Record<string, unknown>> {
    const fragments = await Promise.all(this.clients.map(([name, client]) => this.fetchOne(name, client, query)));
    return Object.assign({}, ...fragments) as Record<string, unknown>;
  }
}
