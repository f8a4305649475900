import { contracts, outboxRecord } from '@confab/events';
import { invalid } from '@confab/errors';
import type { UserIdentity } from '@confab/identity';
import { findUser } from './directory.js';
import { peopleSource, usersById, type PeopleCache, type PeopleSource } from './people-cache.js';
import type { PresenceEntry, PresenceStore, PresenceWrite } from './ports.js';
import type { Database } from './store.js';
import type { Realm, User } from './types.js';
import { resolveSettings } from './settings-catalog.js';

/** Zulip's presence timing (zproject/default_settings.py), also sent to clients in POST /register. */
export const PRESENCE_PING_INTERVAL_SECONDS = 60;
export const OFFLINE_THRESHOLD_SECONDS = 140;
/** Several open clients each report every minute; timestamps move at most this often. */
const PRESENCE_UPDATE_MIN_FREQ_SECONDS = 55;
/** Not active for this long and now active: other clients are told at once, not at their next poll. */
const ONLINE_GAP_SECONDS = OFFLINE_THRESHOLD_SECONDS - PRESENCE_PING_INTERVAL_SECONDS - 10;
/** The legacy format calls a user active when their activity is this close to their last connection. */
const LEGACY_ACTIVE_OFFSET_SECONDS = 70;
/** Beyond this many users, "came online" events cost more than they help (Zulip's limit). */
const USER_LIMIT_FOR_PRESENCE_EVENTS = 100;
/** Zulip's window when a client gives no `history_limit_days`. */
const DEFAULT_HISTORY_DAYS = 14;

export interface PresenceContext {
  db: Database;
  presence: PresenceStore;
}

/** What reading presences needs besides: the organization's people (their active and bot flags, emails). */
export interface PresenceReadContext extends PresenceContext {
  people: PeopleCache;
  /** The stores as the cache reads them (one request's; made from `db` when not given). */
  source?: PeopleSource;
}

type PresenceStatus = 'active' | 'idle';

export interface PresenceReport {
  status: string;
  pingOnly: boolean;
  lastUpdateId: number | undefined;
  historyLimitDays: number | undefined;
  slimPresence: boolean;
}

export interface PresenceQuery {
  slim: boolean;
  lastUpdateId?: number | undefined;
  historyLimitDays?: number | undefined;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** Zulip's modern per-user format; a user never active counts as active when they joined. */
function modern(entry: PresenceEntry, user: User): { active_timestamp: number; idle_timestamp: number } {
  const joined = Math.floor(user.dateJoined.getTime() / 1000);
  return { active_timestamp: entry.activeTimestamp ?? joined, idle_timestamp: entry.idleTimestamp };
}

/** Zulip's legacy one-client view (format_legacy_presence_dict). */
function legacyClient(entry: PresenceEntry, user: User): { status: PresenceStatus; timestamp: number } {
  const { active_timestamp, idle_timestamp } = modern(entry, user);
  return active_timestamp + LEGACY_ACTIVE_OFFSET_SECONDS >= idle_timestamp
    ? { status: 'active', timestamp: active_timestamp }
    : { status: 'idle', timestamp: idle_timestamp };
}

function legacy(entry: PresenceEntry, user: User) {
  const { status, timestamp } = legacyClient(entry, user);
  return {
    aggregated: { client: 'website', status, timestamp },
    website: { client: 'website', status, timestamp, pushable: false },
  };
}

async function loadUser(db: Database, actor: UserIdentity): Promise<{ user: User; realm: Realm }> {
  const user = await db.store.users.byId(actor.userId);
  const realm = user && (await db.store.realms.byId(user.realmId));
  if (!user || !realm) throw invalid('Account is deactivated');
  return { user, realm };
}

/**
 * The organization's presence map (Zulip's get_presence_response): with `lastUpdateId` only what changed since,
 * otherwise everyone connected within the history window; deactivated users and bots are left out.
 */
export async function presenceMap(
  ctx: PresenceReadContext,
  realm: Pick<Realm, 'id' | 'presenceDisabled'>,
  query: PresenceQuery,
): Promise<{ presences: Record<string, unknown>; presence_last_update_id: number; server_timestamp: number }> {
  const serverTimestamp = Date.now() / 1000;
  const afterUpdateId = query.lastUpdateId !== undefined && query.lastUpdateId > 0 ? query.lastUpdateId : null;
  if (realm.presenceDisabled || query.historyLimitDays === 0) {
    return {
      presences: {},
      presence_last_update_id: realm.presenceDisabled ? -1 : (query.lastUpdateId ?? -1),
      server_timestamp: serverTimestamp,
    };
  }
  const since = nowSeconds() - (query.historyLimitDays ?? DEFAULT_HISTORY_DAYS) * 86_400;
  const entries = await ctx.presence.realm(realm.id, { afterUpdateId, since });
  // Every presence update answers the changes since the client's last one: in a large organization, many people.
  // Their records come from the people cache (a fingerprint read), not from a read of each of them.
  const users =
    entries.length === 0
      ? new Map<number, User>()
      : await usersById(ctx.people, ctx.source ?? peopleSource(ctx.db.store), realm.id);
  const presences: Record<string, unknown> = {};
  let lastUpdateId = -1;
  for (const entry of entries) {
    const user = users.get(entry.userId);
    if (!user || !user.isActive || user.isBot) continue;
    if (query.slim) presences[String(user.id)] = modern(entry, user);
    else presences[user.email] = legacy(entry, user);
    lastUpdateId = Math.max(lastUpdateId, entry.lastUpdateId);
  }
  // Nothing new: the client's own id is still the right one (Zulip returns it unchanged).
  if (lastUpdateId === -1 && query.lastUpdateId !== undefined) lastUpdateId = query.lastUpdateId;
  return { presences, presence_last_update_id: lastUpdateId, server_timestamp: serverTimestamp };
}

/** The `presence` event other users' clients get: published when a user comes online (or forced). */
async function presenceEvent(
  ctx: PresenceContext,
  user: User,
  write: PresenceWrite,
  requestId: string | null,
  force: boolean,
): Promise<void> {
  if (!force) {
    // Zulip's USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS: counted only as far as the limit.
    const active = await ctx.db.store.users.countActive(user.realmId, USER_LIMIT_FOR_PRESENCE_EVENTS + 1);
    if (active > USER_LIMIT_FOR_PRESENCE_EVENTS) return;
  }
  const { active_timestamp, idle_timestamp } = modern(write.entry, user);
  const { status, timestamp } = legacyClient(write.entry, user);
  const event = outboxRecord(
    contracts.presenceChanged,
    {
      user_id: user.id,
      realm_id: user.realmId,
      email: user.email,
      active_timestamp,
      idle_timestamp,
      server_timestamp: Date.now() / 1000,
      status,
      timestamp,
    },
    { realmId: user.realmId, requestId },
  );
  await ctx.db.write(() => Promise.resolve({ result: undefined, events: [event] }));
}

/** POST /users/me/presence (Zulip's update_active_status_backend). */
export async function updatePresence(
  ctx: PresenceReadContext,
  actor: UserIdentity,
  report: PresenceReport,
  requestId: string,
): Promise<Record<string, unknown>> {
  if (report.status !== 'active' && report.status !== 'idle') throw invalid(`Invalid status: ${report.status}`);
  // The user, their organization and their settings in one read (the people's fingerprint only when the answer
  // names someone: presenceMap).
  const facts = await ctx.db.presenceFacts(actor.userId);
  if (!facts) throw invalid('Account is deactivated');
  const { user, realm } = facts;
  if (resolveSettings(facts.settingValues).presence_enabled !== false) {
    const write = await ctx.presence.report(realm.id, user.id, nowSeconds(), report.status === 'active', {
      minUpdateSeconds: PRESENCE_UPDATE_MIN_FREQ_SECONDS,
      onlineGapSeconds: ONLINE_GAP_SECONDS,
    });
    if (!realm.presenceDisabled && (write.created || write.becameOnline))
      await presenceEvent(ctx, user, write, requestId, false);
  }
  if (report.pingOnly) return {};
  // Passing last_update_id means the client speaks the modern protocol.
  const slim = report.slimPresence || report.lastUpdateId !== undefined;
  return presenceMap(ctx, realm, {
    slim,
    lastUpdateId: report.lastUpdateId,
    historyLimitDays: report.historyLimitDays,
  });
}

/** GET /realm/presence: everyone's presence in the legacy format, for bots and scripts. */
export async function realmPresence(ctx: PresenceReadContext, actor: UserIdentity): Promise<Record<string, unknown>> {
  const { realm } = await loadUser(ctx.db, actor);
  const { presences, server_timestamp } = await presenceMap(ctx, realm, { slim: false });
  return { presences, server_timestamp };
}

/** GET /users/{user_id_or_email}/presence. */
export async function userPresence(
  ctx: PresenceContext,
  actor: UserIdentity,
  userIdOrEmail: string,
  slim: boolean,
): Promise<Record<string, unknown>> {
  const key = /^[0-9]+$/.test(userIdOrEmail) ? { id: Number(userIdOrEmail) } : { email: userIdOrEmail };
  const target = await findUser(ctx.db, actor.realmId, key);
  if (!target || !target.isActive) throw invalid('No such user');
  if (target.botType !== null) throw invalid('Presence is not supported for bot users.');
  const entry = await ctx.presence.user(target.realmId, target.id);
  if (!entry) throw invalid(`No presence data for ${userIdOrEmail}`);
  if (slim) return { presence: modern(entry, target) };
  const { status, timestamp } = legacyClient(entry, target);
  // The aggregate says offline once the last report is older than the offline threshold.
  const aggregated = nowSeconds() - timestamp > OFFLINE_THRESHOLD_SECONDS ? 'offline' : status;
  return { presence: { aggregated: { status: aggregated, timestamp }, website: { status, timestamp } } };
}

/**
 * The user switched presence sharing on or off: their entry is replaced at once (switched off: last seen a few
 * minutes before, so every client shows them offline) and everyone is told at once, as Zulip does.
 */
export async function presenceSharingChanged(
  ctx: PresenceContext,
  user: User,
  enabled: boolean,
  requestId: string,
): Promise<void> {
  const at = enabled ? nowSeconds() : nowSeconds() - (OFFLINE_THRESHOLD_SECONDS + 120);
  const write = await ctx.presence.reset(user.realmId, user.id, { active: enabled ? at : null, idle: at });
  await presenceEvent(ctx, user, write, requestId, true);
}

/** A deactivated user's presence is dropped, so nobody sees them online. */
export function forgetPresence(ctx: PresenceContext, user: Pick<User, 'id' | 'realmId'>): Promise<void> {
  return ctx.presence.remove(user.realmId, user.id);
}

/**
 * Which of these users are away, for notifications (Zulip's filter_presence_idle_user_ids): those with no activity
 * reported in the last OFFLINE_THRESHOLD_SECONDS, by any client.
 */
export async function awayUsers(
  presence: PresenceStore,
  realmId: number,
  userIds: readonly number[],
  now: number = Math.floor(Date.now() / 1000),
): Promise<number[]> {
  const entries = await Promise.all(userIds.map((id) => presence.user(realmId, id)));
  return userIds.filter((_, i) => {
    const active = entries[i]?.activeTimestamp ?? null;
    return active === null || now - active > OFFLINE_THRESHOLD_SECONDS;
  });
}
