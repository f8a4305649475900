import { LOCAL_DEFAULTS } from '@confab/devkit';

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
  permissions: { can_create_public_channel_group: 'role:members', can_add_subscribers_group: 'role:members' },
} as const;

/** A user of the organization: `name` is the email's local part, capitalised as the full name. */
export const userRecord = (id: number, name: string, role: 100 | 200 | 400 | 600 = 400) => ({
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
