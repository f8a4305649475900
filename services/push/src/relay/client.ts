import type { Logger } from '@confab/logging';
import type { RelayConfig } from '../config.js';
import {
  IDEMPOTENCY_HEADER,
  NOTIFY_PATH,
  REGISTER_PATH,
  REGISTRATION_ERROR_CODES,
  classifyStatus,
  isTransient,
  type NotifyRequest,
  type RegisterRequest,
  type RegisterResponse,
  type RelayFailure,
} from './protocol.js';

export type RelayResult<T> =
  { ok: true; value: T } | { ok: false; failure: RelayFailure; code?: string; detail: string };

export interface CallOptions {
  idempotencyKey: string;
  /** Epoch ms after which no attempt starts and none lasts (the caller stops waiting then). */
  deadline?: number;
  /** Overrides the configured number of attempts (registration retries at the job level instead). */
  attempts?: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Talks to the push relay: Basic credentials, a time limit per request, retries with backoff for transient failures. */
export class RelayClient {
  constructor(
    private readonly config: RelayConfig,
    private readonly logger: Logger,
  ) {}

  get configured(): boolean {
    return this.config.url !== '';
  }

  async register(body: RegisterRequest, options: CallOptions): Promise<RelayResult<RegisterResponse>> {
    const result = await this.call(REGISTER_PATH, body, options);
    if (!result.ok) return result;
    const deviceId = (result.value as { device_id?: unknown } | null)?.device_id;
    if (typeof deviceId !== 'string' || deviceId === '') {
      return { ok: false, failure: 'server', detail: 'registration answer without device_id' };
    }
    return { ok: true, value: { device_id: deviceId } };
  }

  async notify(body: NotifyRequest, options: CallOptions): Promise<RelayResult<void>> {
    const result = await this.call(NOTIFY_PATH, body, options);
    if (result.ok) return { ok: true, value: undefined };
    // A 400 to a notification means this relay does not understand us (version mismatch): the admin must act.
    return result.failure === 'rejected' ? { ...result, failure: 'admin' } : result;
  }

  private async call(path: string, body: object, options: CallOptions): Promise<RelayResult<unknown>> {
    if (!this.configured) return { ok: false, failure: 'admin', detail: 'no relay configured' };
    const attempts = options.attempts ?? this.config.attempts;
    let last: RelayResult<unknown> = { ok: false, failure: 'network', detail: 'not attempted' };
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const remaining = options.deadline === undefined ? Infinity : options.deadline - Date.now();
      if (remaining < 50) break;
      last = await this.once(path, body, options.idempotencyKey, Math.min(this.config.timeoutMs, remaining));
      if (last.ok || !isTransient(last.failure)) return last;
      this.logger.warn({ path, attempt, failure: last.failure, detail: last.detail }, 'push relay request failed');
      const backoff = this.config.backoffMs * 2 ** (attempt - 1);
      if (attempt < attempts) {
        if (options.deadline !== undefined && Date.now() + backoff >= options.deadline) break;
        await sleep(backoff);
      }
    }
    return last;
  }

  private async once(
    path: string,
    body: object,
    idempotencyKey: string,
    timeoutMs: number,
  ): Promise<RelayResult<unknown>> {
    const credentials = Buffer.from(`${this.config.serverId}:${this.config.serverKey}`).toString('base64');
    let response: Response;
    let text: string;
    try {
      response = await fetch(this.config.url + path, {
        method: 'POST',
        headers: {
          authorization: `Basic ${credentials}`,
          'content-type': 'application/json',
          'user-agent': 'ConfabServer/0.1',
          [IDEMPOTENCY_HEADER]: idempotencyKey,
        },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
      text = await response.text();
    } catch (err) {
      const cause = err instanceof Error ? ((err.cause as Error | undefined)?.message ?? err.message) : String(err);
      return { ok: false, failure: 'network', detail: cause };
    }
    const failure = classifyStatus(response.status);
    let parsed: unknown = null;
    try {
      parsed = text === '' ? null : JSON.parse(text);
    } catch {
      if (failure === null) return { ok: false, failure: 'server', detail: 'unreadable success answer' };
    }
    if (failure === null) return { ok: true, value: parsed };
    const code = (parsed as { code?: unknown } | null)?.code;
    const known = REGISTRATION_ERROR_CODES.find((c) => c === code);
    return {
      ok: false,
      failure,
      detail: `HTTP ${response.status}`,
      ...(failure === 'rejected' ? { code: known ?? 'BAD_REQUEST' } : {}),
    };
  }
}
