import { randomBytes } from 'node:crypto';
import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import { invalid } from '@confab/errors';
import { ROLE_ADMINISTRATOR, ROLE_MEMBER, type UserIdentity } from '@confab/identity';
import { isValidEmail } from './auth.js';
import { generateApiKey, hashApiKey } from './credentials.js';
import { hasRealmPermission } from './permissions.js';
import type { GroupDirectory } from './ports.js';
import { realmUrl } from './realms.js';
import { AlreadyExists, type Database, type Store } from './store.js';
import {
  BOT_TYPE_GENERIC,
  BOT_TYPE_INCOMING_WEBHOOK,
  BOT_TYPE_OUTGOING_WEBHOOK,
  type BotService,
  type Realm,
  type User,
} from './types.js';
import { avatarUrl, userRecord } from './users.js';
import { checkFullName } from './validators.js';

/** Bot types this server creates (Zulip's embedded bots need a catalogue Confab does not have). */
const CREATABLE_TYPES = [BOT_TYPE_GENERIC, BOT_TYPE_INCOMING_WEBHOOK, BOT_TYPE_OUTGOING_WEBHOOK];
/** Outgoing webhook payload formats: 1 Zulip's, 2 Slack's. */
const INTERFACES = [1, 2];

export interface BotContext {
  db: Database;
  groups: GroupDirectory;
  externalUrl: string;
}

const insufficient = () => invalid('Insufficient permission');

/** Zulip's bot dictionary (realm_bot events, /register's realm_bots). */
export function botRecord(bot: User, services: readonly BotService[], apiKey = ''): Record<string, unknown> {
  return {
    user_id: bot.id,
    email: bot.email,
    full_name: bot.fullName,
    bot_type: bot.botType,
    is_active: bot.isActive,
    api_key: apiKey,
    avatar_url: avatarUrl(bot),
    owner_id: bot.botOwnerId,
    default_sending_stream: null,
    default_events_register_stream: null,
    default_all_public_streams: false,
    services: services
      .filter((s) => s.botId === bot.id)
      .map((s) => ({ base_url: s.baseUrl, interface: s.interface, token: s.token })),
  };
}

function botEvent(
  realmId: number,
  bot: User,
  op: 'add' | 'update' | 'delete',
  data: Record<string, unknown>,
  requestId: string,
): OutboxRecord {
  return outboxRecord(
    contracts.realmBotChanged,
    { realm_id: realmId, owner_id: bot.botOwnerId, op, bot: data },
    { realmId, requestId },
  );
}

async function loadActor(db: Database, actor: UserIdentity): Promise<{ user: User; realm: Realm }> {
  const user = await db.store.users.byId(actor.userId);
  const realm = user && (await db.store.realms.byId(user.realmId));
  if (!user || !realm) throw invalid('Account is deactivated');
  return { user, realm };
}

/** Zulip's access_bot_by_id: a bot of this organization that the caller owns or administers. */
async function accessBot(db: Database, actor: UserIdentity, botId: number): Promise<User> {
  const bot = await db.store.users.byId(botId);
  if (!bot || bot.realmId !== actor.realmId || !bot.isBot || bot.isSystemBot) throw invalid('No such bot');
  if (actor.role > ROLE_ADMINISTRATOR && bot.botOwnerId !== actor.userId) throw insufficient();
  return bot;
}

/** GET /bots (Zulip's get_bots_backend): the caller's own active bots, with their API keys as Zulip shows them. */
export async function listOwnBots(db: Database, actor: UserIdentity): Promise<Record<string, unknown>[]> {
  const bots = (await db.store.users.inRealm(actor.realmId)).filter(
    (u) => u.isBot && u.isActive && u.botOwnerId === actor.userId,
  );
  const keys = await db.store.users.apiKeysOf(bots.map((bot) => bot.id));
  return bots.map((bot) => ({
    username: bot.email,
    full_name: bot.fullName,
    api_key: keys.get(bot.id) ?? '',
    avatar_url: avatarUrl(bot),
    default_sending_stream: null,
    default_events_register_stream: null,
    default_all_public_streams: false,
  }));
}

/**
 * Where an outgoing webhook bot's messages are posted (Zulip's get_bot_services), for messaging's deliverer: read at
 * each delivery, so an edited URL or format applies to the next message. Empty for a deactivated bot or any other user.
 */
export async function outgoingServicesOf(db: Database, botId: number): Promise<Record<string, unknown>[]> {
  const bot = await db.store.users.byId(botId);
  if (!bot || !bot.isActive || bot.botType !== BOT_TYPE_OUTGOING_WEBHOOK) return [];
  const services = await db.store.botServices.ofBots([botId]);
  return services.map((s) => ({ name: s.name, base_url: s.baseUrl, interface: s.interface, token: s.token }));
}

/** /register's realm_bots: the bots this user administers (all of them for administrators). */
export async function realmBots(db: Database, user: User, users: readonly User[]): Promise<Record<string, unknown>[]> {
  const isAdmin = user.role <= ROLE_ADMINISTRATOR;
  const bots = users.filter((u) => u.isBot && (isAdmin || u.botOwnerId === user.id));
  const ids = bots.map((b) => b.id);
  const [services, keys] = await Promise.all([db.store.botServices.ofBots(ids), db.store.users.apiKeysOf(ids)]);
  return bots.map((bot) => botRecord(bot, services, keys.get(bot.id) ?? ''));
}

export interface NewBotSpec {
  fullName: string;
  shortName: string;
  botType: number;
  payloadUrl?: string | undefined;
  interfaceType: number;
}

// Django's URLValidator, which Zulip's check_url applies to payload_url: a dotted-quad IPv4 address (no other
// spelling), a bracketed IPv6 address, `localhost`, or a host name with a top-level domain of letters.
const UL = '\u00a1-\uffff';
const OCTET = '(?:0|25[0-5]|2[0-4][0-9]|1[0-9]?[0-9]?|[1-9][0-9]?)';
const IPV4 = `${OCTET}(?:\\.${OCTET}){3}`;
const IPV6 = '\\[[0-9a-f:.]+\\]';
const HOSTNAME = `[a-z${UL}0-9](?:[a-z${UL}0-9-]{0,61}[a-z${UL}0-9])?`;
const DOMAIN = `(?:\\.(?!-)[a-z${UL}0-9-]{1,63}(?<!-))*`;
const TLD = `\\.(?!-)(?:[a-z${UL}-]{2,63}|xn--[a-z0-9]{1,59})(?<!-)\\.?`;
const DJANGO_URL = new RegExp(
  `^(?:[a-z0-9.+-]*)://(?:[^\\s:@/]+(?::[^\\s:@/]*)?@)?(?:${IPV4}|${IPV6}|${HOSTNAME}${DOMAIN}${TLD}|localhost)` +
    '(?::[0-9]{1,5})?(?:[/?#][^\\s]*)?$',
  'i',
);
const URL_SCHEMES = ['http', 'https', 'ftp', 'ftps'];

/**
 * Zulip's check_url: what Django's URLValidator accepts. Where the URL leads is not judged here: as Zulip refuses
 * private addresses at delivery (Smokescreen), the messaging worker's guarded client does (docs/security.md).
 */
function checkPayloadUrl(url: string, name = 'payload_url'): string {
  const scheme = url.split('://')[0]!.toLowerCase();
  if (URL_SCHEMES.includes(scheme) && url.length <= 2048 && DJANGO_URL.test(url)) {
    try {
      // The bracketed IPv6 form must be an address too (Django's validate_ipv6_address).
      new URL(url);
      return url;
    } catch {
      // refused below
    }
  }
  throw invalid(`${name} is not a URL`);
}

async function checkNameAvailable(store: Store, realmId: number, fullName: string, exceptId?: number): Promise<void> {
  const lower = fullName.toLowerCase();
  const taken = (await store.users.inRealm(realmId)).some(
    (u) => u.isActive && u.id !== exceptId && u.fullName.toLowerCase() === lower,
  );
  if (taken) throw invalid('Name is already in use!');
}

/**
 * POST /bots (Zulip's add_bot_backend): generic, incoming webhook and outgoing webhook bots, created by members the
 * organization lets (can_create_bots_group, can_create_write_only_bots_group for incoming webhooks), owned by them.
 */
export async function createBot(
  ctx: BotContext,
  actor: UserIdentity,
  spec: NewBotSpec,
  requestId: string,
): Promise<{ bot: User; apiKey: string; services: BotService[] }> {
  const { user, realm } = await loadActor(ctx.db, actor);
  if (user.isBot) throw invalid('Bots cannot create bots');
  const fullName = checkFullName(spec.fullName);
  if (!CREATABLE_TYPES.includes(spec.botType)) throw invalid('Invalid bot type');
  if (!INTERFACES.includes(spec.interfaceType)) throw invalid('Invalid interface type');
  const allowed =
    (await hasRealmPermission(ctx.groups, realm, user, 'can_create_bots_group')) ||
    (spec.botType === BOT_TYPE_INCOMING_WEBHOOK &&
      (await hasRealmPermission(ctx.groups, realm, user, 'can_create_write_only_bots_group')));
  if (!allowed) throw insufficient();
  const shortName = spec.shortName.trim();
  const email = `${shortName}-bot@${new URL(realmUrl(realm, ctx.externalUrl)).hostname}`;
  if (!shortName || !isValidEmail(email)) throw invalid('Bad name or username');
  let payloadUrl: string | undefined;
  if (spec.botType === BOT_TYPE_OUTGOING_WEBHOOK) {
    if (spec.payloadUrl === undefined) throw invalid("Missing 'payload_url' argument");
    payloadUrl = checkPayloadUrl(spec.payloadUrl);
  }
  try {
    return await ctx.db.write(async (store) => {
      await checkNameAvailable(store, realm.id, fullName);
      if (await store.users.byEmail(realm.id, email)) throw invalid('Username already in use');
      const bot = await store.users.create({
        realmId: realm.id,
        email,
        fullName,
        role: ROLE_MEMBER,
        isBot: true,
        botType: spec.botType,
        botOwnerId: user.id,
      });
      const apiKey = generateApiKey();
      await store.users.replaceApiKey(bot.id, apiKey, hashApiKey(apiKey));
      const services: BotService[] = [];
      if (payloadUrl !== undefined) {
        const service = {
          botId: bot.id,
          name: shortName,
          baseUrl: payloadUrl,
          interface: spec.interfaceType,
          token: randomBytes(24).toString('base64url'),
        };
        await store.botServices.add(service);
        services.push(service);
      }
      const meta = { realmId: realm.id, requestId };
      const events = [
        outboxRecord(contracts.userCreated, { user: userRecord(bot) }, meta),
        botEvent(realm.id, bot, 'add', botRecord(bot, services, apiKey), requestId),
      ];
      return { result: { bot, apiKey, services }, events };
    });
  } catch (err) {
    if (err instanceof AlreadyExists) throw invalid('Username already in use');
    throw err;
  }
}

export interface BotChanges {
  fullName?: string | undefined;
  botOwnerId?: number | undefined;
  serviceUrl?: string | undefined;
  serviceInterface?: number | undefined;
}

/** PATCH /bots/{bot_id} (Zulip's patch_bot_backend): name, owner and outgoing webhook service. */
export async function updateBot(
  ctx: BotContext,
  actor: UserIdentity,
  botId: number,
  changes: BotChanges,
  requestId: string,
): Promise<Record<string, unknown>> {
  const bot = await accessBot(ctx.db, actor, botId);
  const fullName = changes.fullName === undefined ? undefined : checkFullName(changes.fullName);
  let owner: User | undefined;
  if (changes.botOwnerId !== undefined && changes.botOwnerId !== bot.botOwnerId) {
    const candidate = await ctx.db.store.users.byId(changes.botOwnerId);
    if (!candidate || candidate.realmId !== actor.realmId || candidate.isSystemBot)
      throw invalid('Failed to change owner, no such user');
    if (!candidate.isActive) throw invalid('Failed to change owner, user is deactivated');
    if (candidate.isBot) throw invalid("Failed to change owner, bots can't own other bots");
    owner = candidate;
  }
  if (changes.serviceInterface !== undefined && !INTERFACES.includes(changes.serviceInterface))
    throw invalid('Invalid interface type');
  const serviceUrl =
    changes.serviceUrl === undefined ? undefined : checkPayloadUrl(changes.serviceUrl, 'service_payload_url');
  const serviceChange = serviceUrl !== undefined || changes.serviceInterface !== undefined;
  if (serviceChange && bot.botType !== BOT_TYPE_OUTGOING_WEBHOOK) throw invalid('Not an outgoing webhook bot');

  return ctx.db.write(async (store) => {
    const events: OutboxRecord[] = [];
    const answer: Record<string, unknown> = {};
    let current = (await store.users.lock(bot.id)) ?? bot;
    if (fullName !== undefined && fullName !== current.fullName) {
      await checkNameAvailable(store, actor.realmId, fullName, bot.id);
      current = await store.users.update(bot.id, { fullName });
      events.push(
        outboxRecord(contracts.userUpdated, { user: userRecord(current) }, { realmId: actor.realmId, requestId }),
      );
      events.push(botEvent(actor.realmId, current, 'update', { user_id: bot.id, full_name: fullName }, requestId));
      answer.full_name = fullName;
    }
    if (owner !== undefined) {
      // The previous owner stops hearing of the bot; the new one learns of it whole.
      const previous = current;
      current = await store.users.update(bot.id, { botOwnerId: owner.id });
      events.push(
        outboxRecord(contracts.userUpdated, { user: userRecord(current) }, { realmId: actor.realmId, requestId }),
      );
      events.push(botEvent(actor.realmId, previous, 'delete', { user_id: bot.id }, requestId));
      const services = await store.botServices.ofBots([bot.id]);
      events.push(botEvent(actor.realmId, current, 'add', botRecord(current, services), requestId));
      answer.bot_owner = owner.email;
    }
    if (serviceChange) {
      await store.botServices.update(bot.id, { baseUrl: serviceUrl, interface: changes.serviceInterface });
      const services = await store.botServices.ofBots([bot.id]);
      events.push(
        botEvent(
          actor.realmId,
          current,
          'update',
          { user_id: bot.id, services: botRecord(current, services).services },
          requestId,
        ),
      );
      answer.service_payload_url = serviceUrl;
      answer.service_interface = changes.serviceInterface;
    }
    return { result: answer, events };
  });
}

/** DELETE /bots/{bot_id} (Zulip's deactivate_bot_backend): the bot is deactivated. */
export async function deactivateBot(
  ctx: BotContext,
  actor: UserIdentity,
  botId: number,
  requestId: string,
): Promise<void> {
  const bot = await accessBot(ctx.db, actor, botId);
  if (!bot.isActive) return;
  await ctx.db.write(async (store) => {
    const updated = await store.users.setActive(bot.id, false);
    const meta = { realmId: actor.realmId, requestId };
    return {
      result: undefined,
      events: [
        outboxRecord(contracts.userDeactivated, { user: userRecord(updated) }, meta),
        botEvent(actor.realmId, updated, 'update', { user_id: bot.id, is_active: false }, requestId),
      ],
    };
  });
}
