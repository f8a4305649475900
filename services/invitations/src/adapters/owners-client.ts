import { ConfabError, serviceUnavailable } from '@confab/errors';
import { IDENTITY_HEADER, signIdentity } from '@confab/identity';
import type { Owners } from '../domain/ports.js';
import type { Caller, RealmInfo } from '../domain/types.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

export interface OwnersClientOptions {
  urls: { settings: string; messaging: string; groups: string };
  secret: string;
  /** How long calls about a just-created account retry while its owner has not heard of it, in ms. */
  joinWaitMs: number;
  timeoutMs?: number;
}

/**
 * The settings, messaging and groups services' internal endpoints. A 400 from them is a Zulip error meant for the
 * user and is passed on as it is; anything else unexpected is a 503.
 */
export class OwnersClient implements Owners {
  constructor(private readonly options: OwnersClientOptions) {}

  private async call(base: string, method: string, path: string, body?: unknown): Promise<Answer> {
    let response: Response;
    try {
      response = await fetch(`${base}/internal${path}`, {
        method,
        headers: {
          [IDENTITY_HEADER]: signIdentity({ kind: 'service', service: 'invitations' }, this.options.secret),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      });
    } catch {
      throw serviceUnavailable();
    }
    const parsed = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    return { status: response.status, body: parsed };
  }

  /** The answer's data, or its Zulip error when it is a 400. */
  private async expect(base: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
    const answer = await this.call(base, method, path, body);
    if (answer.status === 200) return answer.body;
    if (answer.status === 400 && typeof answer.body.msg === 'string') {
      const { result: _result, msg, code, ...data } = answer.body;
      throw new ConfabError(msg, { code: typeof code === 'string' ? code : 'BAD_REQUEST', data });
    }
    throw serviceUnavailable();
  }

  /** Retries while the owner answers 404 or 503 (it has not heard of the new account yet). */
  private async patiently(base: string, path: string, body: unknown): Promise<Record<string, unknown>> {
    const deadline = Date.now() + this.options.joinWaitMs;
    for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
      const answer = await this.call(base, 'POST', path, body).catch(() => null);
      if (answer?.status === 200) return answer.body;
      if (answer && answer.status !== 404 && answer.status !== 503) {
        throw new Error(`POST ${path}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
      }
      if (Date.now() > deadline) throw new Error(`POST ${path}: no answer within ${this.options.joinWaitMs} ms`);
      await sleep(wait);
    }
  }

  async realm(realmId: number): Promise<RealmInfo | null> {
    const page = await this.expect(this.options.urls.settings, 'GET', `/realms?after_id=${realmId - 1}`);
    const realms = Array.isArray(page.realms) ? (page.realms as Record<string, unknown>[]) : [];
    const found = realms.find((r) => r.realm_id === realmId);
    if (!found) return null;
    return {
      id: realmId,
      url: String(found.url),
      name: String(found.name),
      deactivated: found.deactivated === true,
    };
  }

  private callerBody(caller: Caller) {
    return { realm_id: caller.realmId, user_id: caller.userId, role: caller.role, is_bot: caller.isBot };
  }

  async checkGroups(caller: Caller, groupIds: readonly number[]): Promise<void> {
    await this.expect(this.options.urls.groups, 'POST', '/invitations/check', {
      ...this.callerBody(caller),
      group_ids: groupIds,
    });
  }

  async checkChannels(caller: Caller, streamIds: readonly number[]): Promise<void> {
    await this.expect(this.options.urls.messaging, 'POST', '/invitations/streams/check', {
      ...this.callerBody(caller),
      stream_ids: streamIds,
    });
  }

  async createUser(spec: Parameters<Owners['createUser']>[0]): Promise<{ userId: number; email: string }> {
    const answer = await this.expect(this.options.urls.settings, 'POST', '/invitations/users', {
      realm_id: spec.realmId,
      email: spec.email,
      full_name: spec.fullName,
      password: spec.password,
      role: spec.role,
    });
    const user = answer.user as { user_id?: unknown; email?: unknown } | undefined;
    if (typeof user?.user_id !== 'number') throw serviceUnavailable();
    return { userId: user.user_id, email: String(user.email) };
  }

  async subscribe(realmId: number, userId: number, streamIds: readonly number[], includeDefaults: boolean) {
    await this.patiently(this.options.urls.messaging, '/invitations/streams/subscribe', {
      realm_id: realmId,
      user_id: userId,
      stream_ids: streamIds,
      include_realm_default_subscriptions: includeDefaults,
    });
  }

  async joinGroups(realmId: number, userId: number, groupIds: readonly number[]) {
    await this.patiently(this.options.urls.groups, '/invitations/join', {
      realm_id: realmId,
      user_id: userId,
      group_ids: groupIds,
    });
  }

  async sendWelcome(realmId: number, senderId: number, recipientId: number, content: string) {
    await this.patiently(this.options.urls.messaging, '/invitations/welcome', {
      realm_id: realmId,
      sender_id: senderId,
      recipient_id: recipientId,
      content,
    });
  }
}
