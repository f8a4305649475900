import { LOCAL_DEFAULTS, serviceDatabase } from '@confab/devkit';
import { ConfabError } from '@confab/errors';
import type { contracts } from '@confab/events';
import { createLogger } from '@confab/logging';
import { loadConfig } from '../src/config';
import { buildDomain } from '../src/domain-factory';
import type { NewChannelSettings } from '../src/domain/channel-rules';
import { subscribeToChannels } from '../src/domain/channels';
import { sendMessage } from '../src/domain/send';
import type { Actor } from '../src/domain/actor';
import type { Role } from '../src/domain/types';

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
  inline_image_preview: true,
  inline_url_embed_preview: false,
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

/** A migrated database of the spec's own and the domain over it, with a pool of `pool` connections; `drop` ends both. */
export async function migratedDomain(name: string, pool: number) {
  const database = await serviceDatabase('messaging', name);
  const config = loadConfig({
    NODE_ENV: 'test',
    MESSAGING_DATABASE_URL: database.url,
    MESSAGING_DB_POOL: String(pool),
  });
  const built = buildDomain(config, createLogger({ name: 'test', level: 'silent' }), () => undefined);
  return {
    domain: built.domain,
    store: built.store,
    readModel: built.readModel,
    url: database.url,
    drop: async () => {
      await built.close();
      await database.drop();
    },
  };
}

/** The domain as built, its ports typed as the classes implementing them (specs reach into storage). */
export type TestDomain = ReturnType<typeof buildDomain>['domain'];

/** A public channel's settings as POST /users/me/subscriptions creates it without options. */
export const PUBLIC_CHANNEL: NewChannelSettings = {
  inviteOnly: false,
  isWebPublic: false,
  isDefaultStream: false,
  historyPublicToSubscribers: undefined,
  messageRetentionDays: 'realm_default',
  topicsPolicy: undefined,
  folderId: undefined,
  permissions: {},
};

export interface WorldSpec {
  /** Names the spec's database. */
  name: string;
  /** Connections of the domain's pool (of which the group commit keeps two once it has used them). */
  pool: number;
  /** Users of the organization: id, name (the email's local part) and role (member by default). */
  users: readonly (readonly [number, string, Role?])[];
  /** Organization settings other than the fixtures' defaults. */
  realm?: Partial<Omit<contracts.RealmRecord, 'realm_id'>>;
  /** A public channel every user is subscribed to, created by the first user. */
  channel?: string;
  /** The user id of the organization's Notification Bot (settings' system bot), when the spec needs it. */
  notificationBot?: number;
}

/**
 * The messaging service's integration tier (docs/architecture.md, "Tests"): its own migrated database with an
 * organization, users as settings announces them, and a channel they are all subscribed to; the domain over it.
 */
export async function messagingWorld(spec: WorldSpec) {
  const built = await migratedDomain(spec.name, spec.pool);
  const { domain, store, readModel } = built;
  await store.db.$transaction(async (tx) => {
    await readModel.upsertRealm(tx, { ...realmRecord, ...spec.realm });
    for (const [id, name, role] of spec.users) await readModel.upsertUser(tx, userRecord(id, name, role));
    if (spec.notificationBot !== undefined) {
      const bot = userRecord(spec.notificationBot, 'notification-bot');
      await readModel.upsertUser(tx, { ...bot, full_name: 'Notification Bot', is_bot: true, is_system_bot: true });
    }
  });
  const realm = (await readModel.realmById(REALM))!;
  const actors: Record<string, Actor> = {};
  for (const [id, name] of spec.users)
    actors[name] = { user: (await readModel.userById(id))!, realm, requestId: 'test' };
  const channel = spec.channel ?? 'Verona';
  await subscribeToChannels(domain, actors[spec.users[0]![1]]!, {
    subscriptions: [{ name: channel }],
    principals: spec.users.map(([id]) => id),
    authorizationErrorsFatal: true,
    settings: PUBLIC_CHANNEL,
  });
  const channelId = (await domain.directory.channelByName(REALM, channel))!.id;
  return { ...built, actors, channelId };
}

/** Sends a channel message as `actor`, as POST /messages would; its id. */
export async function sendToChannel(
  domain: Parameters<typeof sendMessage>[0],
  actor: Actor,
  topic: string,
  content: string,
  channel = 'Verona',
): Promise<number> {
  const sent = await sendMessage(domain, actor, {
    type: 'stream',
    to: channel,
    topic,
    content,
    queueId: undefined,
    localId: undefined,
    readBySender: undefined,
    client: 'test',
  });
  return sent.id;
}

/** The Zulip error a domain call refuses with: its code, HTTP status and message (fails the test if it succeeds). */
export async function refusal(promise: Promise<unknown>): Promise<{ code: string; status: number; msg: string }> {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ConfabError);
  const { code, status, message } = err as ConfabError;
  return { code, status, msg: message };
}
