import { serviceUnavailable } from '@confab/errors';
import { IDENTITY_HEADER, signIdentity } from '@confab/identity';
import type { Logger } from '@confab/logging';

/** What /register passes on to the services that own the initial state (see ../../README.md). */
export interface StateQuery {
  userId: number;
  queueId: string;
  /** null: everything. */
  fetchEventTypes: string[] | null;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  includeSubscribers: boolean | 'partial';
  slimPresence: boolean;
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
  constructor(
    private readonly providers: Record<string, string>,
    private readonly secret: string,
    private readonly timeoutMs: number,
    private readonly log: Logger,
  ) {}

  private cached: { token: string; renewAt: number } | undefined;

  /** The service token, signed again every 30 s rather than per request (signing is costly). */
  private token(): string {
    const now = Date.now();
    if (!this.cached || now >= this.cached.renewAt) {
      this.cached = {
        token: signIdentity({ kind: 'service', service: 'events' }, this.secret, 60),
        renewAt: now + 30_000,
      };
    }
    return this.cached.token;
  }

  private url(base: string, query: StateQuery): string {
    const params = new URLSearchParams({
      queue_id: query.queueId,
      apply_markdown: JSON.stringify(query.applyMarkdown),
      client_gravatar: JSON.stringify(query.clientGravatar),
      include_subscribers: JSON.stringify(query.includeSubscribers),
      slim_presence: JSON.stringify(query.slimPresence),
      client_capabilities: JSON.stringify(query.clientCapabilities),
      narrow: JSON.stringify(query.narrow),
    });
    if (query.fetchEventTypes !== null) params.set('fetch_event_types', JSON.stringify(query.fetchEventTypes));
    return `${base}/internal/users/${query.userId}/initial-state?${params.toString()}`;
  }

  private async fetchOne(name: string, base: string, query: StateQuery): Promise<Record<string, unknown>> {
    const token = this.token();
    let response: Response;
    try {
      response = await fetch(this.url(base, query), {
        headers: { [IDENTITY_HEADER]: token },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (err) {
      this.log.warn({ err, provider: name }, 'initial state unavailable');
      throw serviceUnavailable();
    }
    if (response.status === 404) return {};
    if (response.status !== 200) {
      this.log.warn({ provider: name, status: response.status }, 'initial state request failed');
      throw serviceUnavailable();
    }
    const body = (await response.json()) as Record<string, unknown>;
    return Object.fromEntries(Object.entries(body).filter(([key]) => !NOT_STATE.has(key)));
  }

  async gather(query: StateQuery): Promise<Record<string, unknown>> {
    const names = Object.keys(this.providers).sort();
    const fragments = await Promise.all(names.map((name) => this.fetchOne(name, this.providers[name]!, query)));
    return Object.assign({}, ...fragments) as Record<string, unknown>;
  }
}
