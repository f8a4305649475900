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

  /**
   * Calls an owner's endpoint, retrying while it answers 404 or 503: it has not heard of the new account yet (an
   * answer other than those, or none within the wait, is an error).
   */
  private async patiently<Req, Res>(owner: ServiceClient, endpoint: internal.InternalEndpoint<Req, Res>, body: Req) {
    const deadline = Date.now() + this.options.joinWaitMs;
    const request = { body: endpoint.request.parse(body) };
    for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
      const answer: InternalAnswer | null = await owner
        .request(endpoint.method, endpoint.path, request)
        .catch(() => null);
      if (answer?.status === 200) return endpoint.response.parse(answer.body);
      if (answer && answer.status !== 404 && answer.status !== 503) {
        throw new Error(`${endpoint.method} ${endpoint.path}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
      }
      if (Date.now() > deadline)
        throw new Error(`${endpoint.method} ${endpoint.path}: no answer within ${this.options.joinWaitMs} ms`);
      await sleep(wait);
    }
  }

  async realm(realmId: number): Promise<RealmInfo | null> {
    const page = await this.clients.settings.call('GET', '/realms', internal.realmsPage, {
      query: { after_id: realmId - 1 },
    });
    const found = page.realms.find((r) => r.realm_id === realmId);
    if (!found) return null;
    return {
      id: realmId,
      url: found.url,
      name: found.name,
      deactivated: found.deactivated,
      permissions: found.permissions,
    };
  }

  private callerBody(caller: Caller) {
    return { realm_id: caller.realmId, user_id: caller.userId, role: caller.role, is_bot: caller.isBot };
  }

  async checkGroups(caller: Caller, groupIds: readonly number[]): Promise<void> {
    await this.clients.groups.send(internal.endpoints.checkInvitationGroups, {
      ...this.callerBody(caller),
      group_ids: [...groupIds],
    });
  }

  async checkChannels(caller: Caller, streamIds: readonly number[]): Promise<void> {
    await this.clients.messaging.send(internal.endpoints.checkInvitationChannels, {
      ...this.callerBody(caller),
      stream_ids: [...streamIds],
    });
  }

  async createUser(spec: Parameters<Owners['createUser']>[0]): Promise<{ userId: number; email: string }> {
    const { user } = await this.clients.settings.send(internal.endpoints.createInvitedUser, {
      realm_id: spec.realmId,
      email: spec.email,
      full_name: spec.fullName,
      password: spec.password,
      role: spec.role,
    });
    return { userId: user.user_id, email: user.email };
  }

  async subscribe(realmId: number, userId: number, streamIds: readonly number[], includeDefaults: boolean) {
    await this.patiently(this.clients.messaging, internal.endpoints.subscribeInvitedUser, {
      realm_id: realmId,
      user_id: userId,
      stream_ids: [...streamIds],
      include_realm_default_subscriptions: includeDefaults,
    });
  }

  async joinGroups(realmId: number, userId: number, groupIds: readonly number[]) {
    await this.patiently(this.clients.groups, internal.endpoints.joinInvitationGroups, {
      realm_id: realmId,
      user_id: userId,
      group_ids: [...groupIds],
    });
  }

  async sendWelcome(realmId: number, senderId: number, recipientId: number, content: string, fromBot = false) {
    await this.patiently(this.clients.messaging, internal.endpoints.sendWelcome, {
      realm_id: realmId,
      sender_id: senderId,
      recipient_id: recipientId,
      content,
      ...(fromBot ? { from_notification_bot: true } : {}),
    });
  }

  async holds(caller: Caller, value: string | number): Promise<boolean> {
    const answer = await this.clients.groups.send(internal.endpoints.evaluateGroupSetting, {
      realm_id: caller.realmId,
      user_id: caller.userId,
      value,
    });
    return answer.is_member;
  }

  async existingAccounts(realmId: number, emails: readonly string[]) {
    const answer = await this.clients.settings.send(internal.endpoints.existingAccounts, {
      realm_id: realmId,
      emails: [...emails],
    });
    return answer.accounts;
  }

  async refusedInvitees(realmId: number, emails: readonly string[]) {
    const answer = await this.clients.settings.send(internal.endpoints.refusedInvitees, {
      realm_id: realmId,
      emails: [...emails],
    });
    return answer.refused;
  }

  async person(userId: number): Promise<{ fullName: string; email: string } | null> {
    const page = await this.clients.settings.call('GET', '/users', internal.usersPage, {
      query: { after_id: userId - 1 },
    });
    const found = page.users.find((u) => u.user_id === userId);
    return found ? { fullName: found.full_name, email: found.delivery_email } : null;
  }

  async sendMail(mail: { to: string; subject: string; text: string }): Promise<boolean> {
    return (await this.clients.settings.send(internal.endpoints.sendMail, mail)).sent;
  }
}
