import { contracts, outboxRecord } from '@confab/events';
import { ConfabError, invalid } from '@confab/errors';
import { ROLE_ADMINISTRATOR, ROLE_OWNER, type Role, type UserIdentity } from '@confab/identity';
import type { PresenceStore } from './ports.js';
import { forgetPresence } from './presence.js';
import type { Database } from './store.js';
import type { User } from './types.js';
import { userRecord } from './users.js';
import { checkFullName } from './validators.js';

export const adminRequired = () =>
  new ConfabError('Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' });
const ownerRequired = () => new ConfabError('Must be an organization owner', { code: 'UNAUTHORIZED_PRINCIPAL' });

async function targetUser(db: Database, actor: UserIdentity, userId: number): Promise<User> {
  const user = await db.store.users.byId(userId);
  if (!user || user.realmId !== actor.realmId) throw invalid('No such user');
  return user;
}

async function setActive(db: Database, user: User, active: boolean, requestId: string): Promise<void> {
  const contract = active ? contracts.userReactivated : contracts.userDeactivated;
  const meta = { realmId: user.realmId, requestId };
  // Zulip's do_deactivate_user deactivates every active bot the user owns first (their keys would otherwise keep the
  // removed user's access); reactivation leaves them off. One transaction: never the user without their bots.
  const bots = active
    ? []
    : (await db.store.users.inRealm(user.realmId)).filter((u) => u.isBot && u.isActive && u.botOwnerId === user.id);
  await db.write(async (store) => {
    const events = [];
    for (const bot of bots) {
      const off = await store.users.setActive(bot.id, false);
      // Zulip's events for each bot: realm_user update is_active (everyone), realm_bot update is_active (the owner
      // and the administrators), as DELETE /bots/{id} sends them.
      events.push(
        outboxRecord(contracts.userDeactivated, { user: userRecord(off) }, meta),
        outboxRecord(
          contracts.realmBotChanged,
          {
            realm_id: user.realmId,
            owner_id: bot.botOwnerId,
            op: 'update',
            bot: { user_id: bot.id, is_active: false },
          },
          meta,
        ),
      );
    }
    const updated = await store.users.setActive(user.id, active);
    events.push(outboxRecord(contract, { user: userRecord(updated) }, meta));
    return { result: undefined, events };
  });
}

/**
 * The one deactivation every path takes once it may (the admin API, SCIM, the directory sync): the last owner stays,
 * the change and its `user.deactivated` event (which ends the user's sessions and cached credentials), and presence.
 */
export async function deactivateAccount(
  ctx: { db: Database; presence: PresenceStore },
  user: User,
  requestId: string,
): Promise<void> {
  const { db } = ctx;
  if (user.role === ROLE_OWNER && user.isActive && (await db.store.users.countActiveOwners(user.realmId)) <= 1) {
    throw invalid('Cannot deactivate the only organization owner');
  }
  if (!user.isActive) return;
  await setActive(db, user, false, requestId);
  // Nobody should see a deactivated user online; their presence would otherwise linger until it expires.
  await forgetPresence(ctx, user);
}

/** The reactivation every path takes (the admin API, SCIM, the directory sync). */
export async function reactivateAccount(db: Database, user: User, requestId: string): Promise<void> {
  if (user.isActive) throw invalid('User is already active');
  await setActive(db, user, true, requestId);
}

/** DELETE /users/{user_id} and DELETE /users/me: Zulip's rules about administrators and the last owner. */
export async function deactivateUser(
  ctx: { db: Database; presence: PresenceStore },
  actor: UserIdentity,
  userId: number,
  requestId: string,
): Promise<void> {
  const { db } = ctx;
  const self = userId === actor.userId;
  if (!self && actor.role > ROLE_ADMINISTRATOR) throw adminRequired();
  const user = await targetUser(db, actor, userId);
  if (!self && user.role === ROLE_OWNER && actor.role !== ROLE_OWNER) throw ownerRequired();
  await deactivateAccount(ctx, user, requestId);
}

/** POST /users/{user_id}/reactivate (administrators). */
export async function reactivateUser(
  db: Database,
  actor: UserIdentity,
  userId: number,
  requestId: string,
): Promise<void> {
  if (actor.role > ROLE_ADMINISTRATOR) throw adminRequired();
  const user = await targetUser(db, actor, userId);
  await reactivateAccount(db, user, requestId);
}

/**
 * PATCH /users/{user_id} (administrators): Zulip's update_user_backend for a role and a full name. Granting or
 * removing ownership takes an owner, and the only active owner keeps the role.
 */
export async function updateUser(
  db: Database,
  actor: UserIdentity,
  userId: number,
  change: { role?: Role | undefined; fullName?: string | undefined },
  requestId: string,
): Promise<void> {
  const user = await targetUser(db, actor, userId);
  if (actor.role > ROLE_ADMINISTRATOR) throw invalid('Insufficient permission');
  const meta = { realmId: actor.realmId, requestId };
  await db.write(async (store) => {
    const current = (await store.users.lock(user.id)) ?? user;
    const events = [];
    let role: Role | undefined;
    if (change.role !== undefined && change.role !== current.role) {
      if ((change.role === ROLE_OWNER || current.role === ROLE_OWNER) && actor.role !== ROLE_OWNER)
        throw ownerRequired();
      if (current.role === ROLE_OWNER && (await store.users.countActiveOwners(actor.realmId)) <= 1) {
        throw invalid('The owner permission cannot be removed from the only organization owner.');
      }
      role = change.role;
    }
    // Administrators may rename anyone, whatever the organization's name_changes_disabled; a blank name is ignored.
    let fullName: string | undefined;
    if (change.fullName !== undefined && change.fullName !== current.fullName && change.fullName.trim() !== '') {
      fullName = checkFullName(change.fullName);
      if (fullName === current.fullName) fullName = undefined;
    }
    if (role === undefined && fullName === undefined) return { result: undefined, events: [] };
    const updated = await store.users.update(user.id, { role, fullName });
    if (role !== undefined) events.push(outboxRecord(contracts.userRoleChanged, { user: userRecord(updated) }, meta));
    if (fullName !== undefined) events.push(outboxRecord(contracts.userUpdated, { user: userRecord(updated) }, meta));
    return { result: undefined, events };
  });
}

/**
 * A full name set by the organization's own systems (SCIM, the directory sync), with the event PATCH /users/{id}
 * sends; a name that is not valid or unchanged is skipped.
 */
export async function renameAccount(db: Database, user: User, fullName: string, requestId: string): Promise<boolean> {
  let name: string;
  try {
    name = checkFullName(fullName);
  } catch {
    return false;
  }
  if (name === user.fullName) return false;
  await db.write(async (store) => {
    const updated = await store.users.update(user.id, { fullName: name });
    const meta = { realmId: user.realmId, requestId };
    return { result: undefined, events: [outboxRecord(contracts.userUpdated, { user: userRecord(updated) }, meta)] };
  });
  return true;
}
