import { internal } from '@confab/events';
import { ServiceClient } from '@confab/http';
import type { ChannelDirectory, ReceivedMessages } from '../domain/ports.js';

/**
 * The messaging service's internal API: `GET /internal/users/{id}/max_message_id` answers `{"max_message_id": N}`
 * (a 503 when MESSAGING_URL is not set, as ServiceClient answers for any unconfigured service).
 */
export class MessagingClient implements ReceivedMessages, ChannelDirectory {
  private readonly client: ServiceClient;

  constructor(baseUrl: string, secret: string, timeoutMs = 5000) {
    this.client = new ServiceClient({ caller: 'settings', baseUrl, secret, timeoutMs });
  }

  async maxMessageId(userId: number): Promise<number> {
    const answer = await this.client.call('GET', `/users/${userId}/max_message_id`, internal.maxMessageId);
    return answer.max_message_id;
  }

  async channelExists(realmId: number, channelId: number): Promise<boolean> {
    const path = `/realms/${realmId}/channels/${channelId}`;
    return (await this.client.call('GET', path, internal.channelExists)).exists;
  }
}
