import { serviceUnavailable } from '@confab/errors';
import type { UserIdentity } from '@confab/identity';
import type { Domain } from './context.js';
import type { Realm, User } from './types.js';

/** The caller of a request: their read-model record and organization. */
export interface Actor {
  user: User;
  realm: Realm;
  requestId: string;
}

/**
 * A user imported as long-term idle gets the rows of their channels' messages before their first request is served
 * (Zulip's reactivate_user_if_soft_deactivated), so every view shows what the import left out.
 */
export async function reactivateIfIdle<U extends { id: number; longTermIdle: boolean }>(
  domain: Pick<Domain, 'directory' | 'messages'>,
  user: U,
  reload: () => Promise<U | null>,
): Promise<U> {
  if (!user.longTermIdle) return user;
  await domain.messages.addMissingRows(user.id);
  domain.directory.forgetUser(user.id);
  return (await reload()) ?? user;
}

/**
 * The caller's user and organization records. Events normally deliver them before the first request; when one has
 * not arrived yet it is fetched from the settings service once.
 */
export async function actorFor(domain: Domain, identity: UserIdentity, requestId: string): Promise<Actor> {
  let [user, realm] = await Promise.all([
    domain.directory.user(identity.userId),
    domain.directory.realm(identity.realmId),
  ]);
  if (!realm) {
    await domain.fetchMissing.realm(identity.realmId);
    realm = await domain.directory.realm(identity.realmId);
  }
  if (!user) {
    await domain.fetchMissing.user(identity.userId);
    user = await domain.directory.user(identity.userId);
  }
  if (!user || !realm || user.realmId !== realm.id) throw serviceUnavailable();
  user = await reactivateIfIdle(domain, user, () => domain.directory.user(identity.userId));
  return { user, realm, requestId };
}
