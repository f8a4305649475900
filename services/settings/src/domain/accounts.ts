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

async function setActive(
  db: Database,
  actor: UserIdentity,
  user: User,
  active: boolean,
  requestId: string,
): Promise<void> {
  const contract = active ? contracts.userReactivated : contracts.userDeactivated;
  await db.write(async (store) => {
    const updated = await store.users.setActive(user.id, active);
    return {
      result: undefined,
      events: [outboxRecord(contract, { user: userRecord(updated) }, { realmId: actor.realmId, requestId })],
    };
  });
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
  if (user.role === ROLE_OWNER && user.isActive && (await db.store.users.countActiveOwners(actor.realmId)) <= 1) {
    throw invalid('Cannot deactivate the only organization owner');
  }
  if (!user.isActive) return;
  await setActive(db, actor, user, false, requestId);
  // Nobody should see a deactivated user online; their presence would otherwise linger until it expires.
  await forgetPresence(ctx, user);
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
  if (user.isActive) throw invalid('User is already active');
  await setActive(db, actor, user, true, requestId);
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
