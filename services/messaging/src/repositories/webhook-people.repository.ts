import type { WebhookPeopleReader } from '../domain/webhooks.js';
import { storable } from './prisma.js';
import type { Store } from './store.js';

/** The people incoming webhooks name, read from this service's copy of the organization's users (domain/webhooks.ts). */
export class WebhookPeopleRepository implements WebhookPeopleReader {
  constructor(private readonly store: Store) {}

  async byDeliveryEmail(realmId: number, emails: readonly string[]): Promise<{ email: string; fullName: string }[]> {
    const wanted = [...new Set(emails.filter(storable).map((e) => e.trim().toLowerCase()))];
    if (wanted.length === 0) return [];
    return this.store.db.$queryRawUnsafe<{ email: string; fullName: string }[]>(
      'SELECT DISTINCT ON (lower(delivery_email)) lower(delivery_email) AS "email", full_name AS "fullName" ' +
        'FROM users WHERE realm_id = $1 AND lower(delivery_email) = ANY($2::text[]) ORDER BY lower(delivery_email), id',
      realmId,
      wanted,
    );
  }

  async guessByName(realmId: number, name: string): Promise<string | null> {
    if (!storable(name) || name === '') return null;
    const [row] = await this.store.db.$queryRawUnsafe<{ fullName: string }[]>(
      'SELECT full_name AS "fullName" FROM users WHERE realm_id = $1 AND is_active AND NOT is_system_bot ' +
        'AND (lower(full_name) = lower($2) OR starts_with(lower(email), lower($2))) ORDER BY id LIMIT 1',
      realmId,
      name,
    );
    return row?.fullName ?? null;
  }
}
