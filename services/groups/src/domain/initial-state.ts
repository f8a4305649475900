import { apiGroup, viewsOf } from './records.js';
import type { GroupsDatabase } from './store.js';

/**
 * This service's part of POST /register (the events service's initial-state protocol): `realm_user_groups` when
 * the client asks for it; deactivated groups only for clients that handle them. Null for an unknown user.
 */
export async function initialState(
  db: GroupsDatabase,
  userId: number,
  query: { fetchEventTypes: string[] | null; includeDeactivatedGroups: boolean },
): Promise<Record<string, unknown> | null> {
  return db.read(async (store) => {
    const user = await store.user(userId);
    if (!user) return null;
    if (query.fetchEventTypes !== null && !query.fetchEventTypes.includes('realm_user_groups')) return {};
    const groups = await store.groupsInRealm(user.realmId, { includeDeactivated: query.includeDeactivatedGroups });
    return { realm_user_groups: (await viewsOf(store, groups)).map(apiGroup) };
  });
}
