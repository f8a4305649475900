import { serviceUnavailable } from '@confab/errors';
import { internal } from '@confab/events';
import { ServiceClient, type InternalAnswer } from '@confab/http';
import type { Owners } from '../domain/ports.js';
import type { Caller, RealmInfo } from '../domain/types.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
  private readonly clients: { settings: ServiceClient; messaging: ServiceClient; groups: ServiceClient };

  constructor(private readonly options: OwnersClientOptions) {
    const client = (baseUrl: string) =>
      new ServiceClient({ caller: 'invitations', baseUrl, secret: options.secret, timeoutMs: options.timeoutMs });
    this.clients = {
      settings: client(options.urls.settings),
      messaging: client(options.urls.messaging),
      groups: client(options.urls.groups),
    };
  }

  /** The answer's data, or its Zulip error when it is a 400. */
  private async expect(
    owner: ServiceClient,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<Record<string, unknown>> {
    return owner.call(method, path, internal.anyObject, { body });
  }

  /** Retries while the owner answers 404 or 503 (it has not heard of the new account yet). */
  private async patiently(owner: ServiceClient, path: string, body: unknown): Promise<Record<string, unknown>> {
    const deadline = Date.now() + this.options.joinWaitMs;
    for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
      const answer: InternalAnswer | null = await owner.request('POST', path, { body }).catch(() => null);
      if (answer?.status === 200) return answer.body;
      if (answer && answer.status !== 404 && answer.status !== 503) {
        throw new Error(`POST ${path}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
      }
      if (Date.now() > deadline) throw new Error(`POST ${path}: no answer within ${this.options.joinWaitMs} ms`);
      await sleep(wait);
    }
  }

  async realm(realmId: number): Promise<RealmInfo | null> {
    const page = await this.expect(this.clients.settings, 'GET', `/realms?after_id=${realmId - 1}`);
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
    await this.expect(this.clients.groups, 'POST', '/invitations/check', {
      ...this.callerBody(caller),
      group_ids: groupIds,
    });
  }

  async checkChannels(caller: Caller, streamIds: readonly number[]): Promise<void> {
    await this.expect(this.clients.messaging, 'POST', '/invitations/streams/check', {
      ...this.callerBody(caller),
      stream_ids: streamIds,
    });
  }

  async createUser(spec: Parameters<Owners['createUser']>[0]): Promise<{ userId: number; email: string }> {
    const answer = await this.expect(this.clients.settings, 'POST', '/invitations/users', {
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
    await this.patiently(this.clients.messaging, '/invitations/streams/subscribe', {
      realm_id: realmId,
      user_id: userId,
      stream_ids: streamIds,
      include_realm_default_subscriptions: includeDefaults,
    });
  }

  async joinGroups(realmId: number, userId: number, groupIds: readonly number[]) {
    await this.patiently(this.clients.groups, '/invitations/join', {
      realm_id: realmId,
      user_id: userId,
      group_ids: groupIds,
    });
  }

  async sendWelcome(realmId: number, senderId: number, recipientId: number, content: string) {
    await this.patiently(this.clients.messaging, '/invitations/welcome', {
      realm_id: realmId,
      sender_id: senderId,
      recipient_id: recipientId,
      content,
    });
  }
}
