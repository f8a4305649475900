import { internal } from '@confab/events';
import { ServiceClient } from '@confab/http';
import type { PendingInvitations } from '../domain/sso/ports.js';

/**
 * The invitations service's internal API for first sign-ins with SSO. Its answer comes once the account is made and
 * the invitation's channels, groups and welcome message are done, which takes a few calls of its own: a longer
 * timeout than the other clients'.
 */
export class InvitationsClient implements PendingInvitations {
  private readonly client: ServiceClient;

  constructor(baseUrl: string, secret: string, timeoutMs = 30_000) {
    this.client = new ServiceClient({ caller: 'settings', baseUrl, secret, timeoutMs });
  }

  async acceptBySso(realmId: number, email: string, fullName: string): Promise<number | null> {
    const answer = await this.client.send(internal.endpoints.acceptInvitationBySso, {
      realm_id: realmId,
      email,
      full_name: fullName,
    });
    return answer.user_id;
  }
}
