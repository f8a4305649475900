import { serviceUnavailable } from '@confab/errors';
import type { UserIdentity } from '@confab/identity';
import type { Actor, Domain } from './context.js';

/** What this file's functions use of the domain: its own ports and those of the areas it calls. */
export type ActorDeps = Pick<Domain, 'directory' | 'fetchMissing'>;

/**
 * The caller's user and organization records. Events normally deliver them before the first request; when one has
 * not arrived yet it is fetched from the settings service once.
 */
export async function actorFor(domain: ActorDeps, identity: UserIdentity, requestId: string): Promise<Actor> {
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
  return { user, realm, requestId };
}
