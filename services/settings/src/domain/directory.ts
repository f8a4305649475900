import { invalid } from '@confab/errors';
import type { UserIdentity } from '@confab/identity';
import { canSeeDeliveryEmail, dummyEmailUserId } from './email-visibility.js';
import { subdomainFromHost } from './realms.js';
import type { ReceivedMessages } from './ports.js';
import type { Database } from './store.js';
import type { Realm, User } from './types.js';
import type { JsonText } from '@confab/zulip';
import { peopleSource, profileDataByUser, type PeopleCache } from './people-cache.js';
import { profileDataOf } from './profile-fields.js';
import { apiUserRecord, ownUserRecord } from './users.js';

const noSuchUser = () => invalid('No such user');

export interface UserView {
  clientGravatar: boolean;
  includeCustomProfileFields: boolean;
}

const viewerOf = (identity: UserIdentity) => ({ userId: identity.userId, role: identity.role });

/** GET /users/me: the account, and the newest message the user received (from the messaging service). */
export async function ownUser(
  ctx: { db: Database; messages: ReceivedMessages },
  identity: UserIdentity,
): Promise<Record<string, unknown>> {
  const [own, maxMessageId] = await Promise.all([
    ctx.db.ownUser(identity.userId),
    ctx.messages.maxMessageId(identity.userId),
  ]);
  if (!own) throw noSuchUser();
  return ownUserRecord(own.user, maxMessageId, profileDataOf(own.profileValues, own.user.id));
}

/**
 * GET /users: the organization's users (from the people cache, as /register's realm_users: serialized once per
 * view between their changes), or those among `userIds`.
 */
export async function listUsers(
  ctx: { db: Database; people: PeopleCache },
  identity: UserIdentity,
  userIds: readonly number[] | undefined,
  view: UserView,
): Promise<Record<string, unknown>[] | JsonText> {
  const { db } = ctx;
  if (userIds === undefined)
    return ctx.people.members(peopleSource(db.store), identity.realmId, view, {
      id: identity.userId,
      role: identity.role,
    });
  const users = await db.store.users.inRealm(identity.realmId, userIds);
  const values = view.includeCustomProfileFields ? await db.store.profileFields.valuesOf(users.map((u) => u.id)) : [];
  const profiles = profileDataByUser(values);
  return users.map((u) => apiUserRecord(u, { ...view, viewer: viewerOf(identity) }, profiles.get(u.id) ?? {}));
}

/** GET /users/{user_id} and GET /users/{email}. */
export async function getUser(
  db: Database,
  identity: UserIdentity,
  key: { id: number } | { email: string },
  view: UserView,
  externalUrl: string,
): Promise<Record<string, unknown>> {
  const user =
    'id' in key
      ? await findUser(db, identity.realmId, key)
      : await userByEmailFor(db, identity, key.email, externalUrl);
  if (!user) throw noSuchUser();
  const values = view.includeCustomProfileFields ? await db.store.profileFields.valuesOf([user.id]) : [];
  return apiUserRecord(user, { ...view, viewer: viewerOf(identity) }, profileDataOf(values, user.id));
}

/**
 * Zulip's access_user_by_email: a dummy address (`user12@host`) names its user by id; a real address finds only a
 * user whose email_address_visibility lets the caller see it, so that a lookup never confirms a hidden address.
 */
export async function userByEmailFor(
  db: Database,
  identity: UserIdentity,
  email: string,
  externalUrl: string,
): Promise<User | null> {
  const realm = await db.store.realms.byId(identity.realmId);
  if (!realm) return null;
  const dummyId = dummyEmailUserId(email, realm, externalUrl);
  if (dummyId !== null) return findUser(db, identity.realmId, { id: dummyId });
  const user = await findUser(db, identity.realmId, { email });
  return user && canSeeDeliveryEmail(viewerOf(identity), user) ? user : null;
}

/** A user of the realm by id or email, any state; null when there is none. */
export async function findUser(
  db: Database,
  realmId: number,
  key: { id: number } | { email: string },
): Promise<User | null> {
  const user = 'id' in key ? await db.store.users.byId(key.id) : await db.store.users.byEmail(realmId, key.email);
  return user && user.realmId === realmId ? user : null;
}

/** The calling user, who must still exist (a deleted account answers like a deactivated one). */
export async function caller(db: Database, identity: UserIdentity): Promise<User> {
  const user = await db.store.users.byId(identity.userId);
  if (!user) throw invalid('Account is deactivated');
  return user;
}

/** The organization a request is for, by its Host header. */
export function realmForHost(db: Database, host: string | undefined, externalUrl: string): Promise<Realm | null> {
  return db.store.realms.byStringId(subdomainFromHost(host, externalUrl));
}
