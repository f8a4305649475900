import { randomBytes } from 'node:crypto';
import { createDatabase, dropDatabase, LOCAL_DEFAULTS, migrate } from '@confab/devkit';
import { createLogger } from '@confab/logging';
import { loadConfig } from '../src/config';
import { buildDomain } from '../src/domain-factory';
import type { Domain } from '../src/domain/context';

/** Organization and users as the settings service announces them, for messaging's integration specs. */

export const postgresUrl = process.env.DATABASE_URL ?? LOCAL_DEFAULTS.postgresUrl;

export const REALM = 7;

export const realmRecord = {
  realm_id: REALM,
  string_id: 'zulip',
  name: 'Zulip',
  description: '',
  url: 'http://zulip.localhost:9991',
  date_created: new Date().toISOString(),
  deactivated: false,
  empty_topic_display_name: 'general chat',
  mandatory_topics: false,
  message_content_delete_limit_seconds: 600,
  waiting_period_threshold: 0,
  allow_message_editing: true,
  message_content_edit_limit_seconds: 600,
  move_messages_within_stream_limit_seconds: 604_800,
  move_messages_between_streams_limit_seconds: 604_800,
  presence_disabled: false,
  enable_read_receipts: false,
  message_retention_days: null,
  permissions: { can_create_public_channel_group: 'role:members', can_add_subscribers_group: 'role:members' },
} as const;

/** A user of the organization: `name` is the email's local part, capitalised as the full name. */
export const userRecord = (id: number, name: string, role: 100 | 200 | 300 | 400 | 600 = 400) => ({
  user_id: id,
  realm_id: REALM,
  email: `${name}@zulip.com`,
  delivery_email: `${name}@zulip.com`,
  full_name: name[0]!.toUpperCase() + name.slice(1),
  role,
  is_bot: false,
  bot_type: null,
  bot_owner_id: null,
  is_active: true,
  timezone: '',
  date_joined: new Date().toISOString(),
});

/** A migrated database of the spec's own and the domain over it, with pools of the given sizes; `drop` ends both. */
export async function migratedDomain(
  name: string,
  pools: { prisma: number; sql: number },
): Promise<{ domain: Domain; drop: () => Promise<void> }> {
  const dbName = `confab_test_${name}_${randomBytes(4).toString('hex')}`;
  const url = await createDatabase(postgresUrl, dbName);
  await migrate({ name: 'messaging', dir: 'services/messaging', databaseEnv: 'MESSAGING_DATABASE_URL' }, url);
  const config = loadConfig({
    MESSAGING_DATABASE_URL: url,
    MESSAGING_DB_POOL: String(pools.prisma),
    MESSAGING_SQL_POOL: String(pools.sql),
  });
  const built = buildDomain(config, createLogger({ name: 'test', level: 'silent' }), () => undefined);
  return {
    domain: built.domain,
    drop: async () => {
      await built.prisma.$disconnect();
      await built.sql.end();
      await dropDatabase(postgresUrl, dbName);
    },
  };
}
