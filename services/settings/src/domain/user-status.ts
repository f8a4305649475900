import { contracts, outboxRecord, type PayloadOf } from '@confab/events';
import { invalid } from '@confab/errors';
import { ROLE_ADMINISTRATOR, type UserIdentity } from '@confab/identity';
import { findUser } from './directory.js';
import { checkEmoji, emojiByName } from './emoji.js';
import type { PresenceStore } from './ports.js';
import { presenceSharingChanged } from './presence.js';
import { resolveSettings } from './settings-catalog.js';
import type { Database } from './store.js';
import type { User, UserStatus } from './types.js';
import { setOwnSettings } from './user-settings.js';

export interface StatusContext {
  db: Database;
  presence: PresenceStore;
}

/** A POST /users/me/status request; parameters the client did not send are left out. */
export interface StatusChange {
  away?: boolean | undefined;
  statusText?: string | undefined;
  emojiName?: string | undefined;
  emojiCode?: string | undefined;
  reactionType?: string | undefined;
}

/** Zulip's user status dict: only the parts that are set; `away` mirrors a disabled `presence_enabled`. */
export interface StatusRecord {
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
}

const MAX_STATUS_TEXT = 60;

export function statusRecord(status: UserStatus | null, presenceEnabled: boolean): StatusRecord {
  const record: StatusRecord = {};
  if (!presenceEnabled) record.away = true;
  if (!status) return record;
  if (status.statusText) record.status_text = status.statusText;
  if (status.emojiName) {
    record.emoji_name = status.emojiName;
    record.emoji_code = status.emojiCode;
    record.reaction_type = status.reactionType;
  }
  return record;
}

/** Zulip's check_update_user_status: what the request sets, validated. */
async function checkChange(db: Database, realmId: number, change: StatusChange): Promise<StatusChange> {
  const statusText = change.statusText?.trim();
  if (statusText !== undefined && [...statusText].length > MAX_STATUS_TEXT)
    throw invalid(`status_text is too long (limit: ${MAX_STATUS_TEXT} characters)`);
  if (change.away === undefined && statusText === undefined && change.emojiName === undefined)
    throw invalid('Client did not pass any new values.');
  const { emojiName } = change;
  let { emojiCode, reactionType } = change;
  if (emojiName === '') {
    // An empty name clears the emoji.
    emojiCode = '';
    reactionType = 'unicode_emoji';
  } else if (emojiName !== undefined) {
    if (emojiCode === undefined || reactionType === undefined) {
      const found = await emojiByName(db, realmId, emojiName);
      emojiCode ??= found.code;
      reactionType ??= found.type;
    }
    reactionType = await checkEmoji(db, realmId, { name: emojiName, code: emojiCode, type: reactionType });
  } else if (reactionType || emojiCode) {
    throw invalid('Client must pass emoji_name if they pass either emoji_code or reaction_type.');
  }
  return { away: change.away, statusText, emojiName, emojiCode, reactionType };
}

/** POST /users/me/status: the status and, for the deprecated `away`, the user's presence sharing. */
export async function updateUserStatus(
  ctx: StatusContext,
  actor: UserIdentity,
  change: StatusChange,
  requestId: string,
): Promise<void> {
  const user = await ctx.db.store.users.byId(actor.userId);
  if (!user) throw invalid('Account is deactivated');
  await applyStatus(ctx, user, change, requestId);
}

/**
 * POST /users/{user_id}/status (Zulip 11, feature level 407): an administrator sets another account's status — a
 * bot's, typically. Zulip's request has no `away`: presence sharing stays the user's own choice.
 */
export async function updateStatusForUser(
  ctx: StatusContext,
  actor: UserIdentity,
  userId: number,
  change: Omit<StatusChange, 'away'>,
  requestId: string,
): Promise<void> {
  if (actor.role > ROLE_ADMINISTRATOR) throw invalid('Insufficient permission');
  const target = await findUser(ctx.db, actor.realmId, { id: userId });
  if (!target || target.isSystemBot || !target.isActive) throw invalid('No such user');
  await applyStatus(ctx, target, { ...change, away: undefined }, requestId);
}

async function applyStatus(ctx: StatusContext, user: User, change: StatusChange, requestId: string): Promise<void> {
  const checked = await checkChange(ctx.db, user.realmId, change);
  const sharingChanged = await ctx.db.write(async (store) => {
    const settings =
      checked.away === undefined
        ? { changed: [], events: [] }
        : await setOwnSettings(store, user, { presence_enabled: !checked.away }, requestId);
    const fields: { statusText?: string; emojiName?: string; emojiCode?: string; reactionType?: string } = {};
    const payload: PayloadOf<typeof contracts.userStatusChanged> = { user_id: user.id, realm_id: user.realmId };
    if (checked.away !== undefined) payload.away = checked.away;
    if (checked.statusText !== undefined) fields.statusText = payload.status_text = checked.statusText;
    if (checked.emojiName !== undefined) {
      fields.emojiName = payload.emoji_name = checked.emojiName;
      fields.emojiCode = payload.emoji_code = checked.emojiCode ?? '';
      fields.reactionType = payload.reaction_type = checked.reactionType ?? 'unicode_emoji';
    }
    await store.statuses.upsert(user.id, fields, new Date());
    const event = outboxRecord(contracts.userStatusChanged, payload, { realmId: user.realmId, requestId });
    return { result: settings.changed.includes('presence_enabled'), events: [...settings.events, event] };
  });
  if (sharingChanged) await presenceSharingChanged(ctx, user, checked.away === false, requestId);
}

async function presenceEnabledOf(db: Database, userIds: readonly number[]): Promise<Map<number, boolean>> {
  const stored = await db.store.settings.getMany(userIds);
  return new Map(userIds.map((id) => [id, resolveSettings(stored.get(id)!.values).presence_enabled !== false]));
}

/** GET /users/{user_id}/status: active users of the organization, not bots. */
export async function getUserStatus(db: Database, actor: UserIdentity, userId: number): Promise<StatusRecord> {
  const target = await findUser(db, actor.realmId, { id: userId });
  if (!target || target.isBot || !target.isActive) throw invalid('No such user');
  const [status, enabled] = await Promise.all([db.store.statuses.get(target.id), presenceEnabledOf(db, [target.id])]);
  return statusRecord(status, enabled.get(target.id)!);
}

/** `user_status` of POST /register: every active user with something set, by user id. */
export async function realmStatuses(db: Database, user: User): Promise<Record<string, StatusRecord>> {
  const statuses = await db.store.statuses.inRealm(user.realmId);
  const enabled = await presenceEnabledOf(
    db,
    statuses.map((s) => s.userId),
  );
  const out: Record<string, StatusRecord> = {};
  for (const status of statuses) {
    const record = statusRecord(status, enabled.get(status.userId)!);
    if (Object.keys(record).length > 0) out[String(status.userId)] = record;
  }
  return out;
}
