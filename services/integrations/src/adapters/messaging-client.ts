import { internal } from '@confab/events';
import type { ServiceClient } from '@confab/http';
import { realmPeople, type OutgoingMessage, type PeopleQuery, type RealmPeople } from '@confab/integrations';
import type { BotFacts, BotRef, MessagingPort } from '../domain/webhooks.js';

/** Messaging's internal webhook endpoints, through the one internal HTTP client (docs/architecture.md). */
export class MessagingClient implements MessagingPort {
  constructor(private readonly client: ServiceClient) {}

  async send(bot: BotRef, client: string, messages: readonly OutgoingMessage[]): Promise<(number | null)[]> {
    const answer = await this.client.send(internal.endpoints.webhookMessages, {
      realm_id: bot.realmId,
      bot_id: bot.userId,
      client,
      messages: messages.map((m) => ({ stream: m.stream, topic: m.topic, content: m.content })),
    });
    return answer.ids;
  }

  async notifyOwner(bot: BotRef, content: string): Promise<void> {
    await this.client.send(internal.endpoints.webhookOwnerNotice, {
      realm_id: bot.realmId,
      bot_id: bot.userId,
      content,
    });
  }

  async bot(bot: BotRef): Promise<BotFacts> {
    const answer = await this.client.send(internal.endpoints.webhookBot, { realm_id: bot.realmId, bot_id: bot.userId });
    return { userId: answer.user_id, fullName: answer.full_name, email: answer.email };
  }

  async people(realmId: number, query: PeopleQuery): Promise<RealmPeople> {
    const answer = await this.client.send(internal.endpoints.webhookPeople, {
      realm_id: realmId,
      emails: [...query.emails],
      names: [...query.names],
    });
    return realmPeople(
      answer.by_email.map((p) => ({ email: p.email, fullName: p.full_name })),
      answer.by_name.map((p) => ({ name: p.name, fullName: p.full_name })),
    );
  }
}
