import { invalid } from '@confab/errors';
import { p, route, t } from '@confab/http';
import type { SettingsDeps } from '../deps.js';
import { deactivateUser, reactivateUser, updateUser } from '../domain/accounts.js';
import { apiUserRecord, ownUserRecord } from '../domain/users.js';
import type { User } from '../domain/types.js';

const noSuchUser = () => invalid('No such user');

export function userRoutes(deps: SettingsDeps) {
  const userView = { client_gravatar: p.bool().default(true), include_custom_profile_fields: p.bool().default(false) };
  const format = (user: User, params: { client_gravatar: boolean; include_custom_profile_fields: boolean }) =>
    apiUserRecord(user, {
      clientGravatar: params.client_gravatar,
      includeCustomProfileFields: params.include_custom_profile_fields,
    });

  return [
    route({
      method: 'GET',
      path: '/users/me',
      auth: 'user',
      async handler({ identity }) {
        const user = await deps.repo.userById(identity.userId);
        if (!user) throw noSuchUser();
        return ownUserRecord(user);
      },
    }),
    route({
      method: 'GET',
      path: '/users',
      auth: 'user',
      params: { ...userView, user_ids: p.intList().optional() },
      async handler({ identity, params }) {
        const users = await deps.repo.usersInRealm(identity.realmId, params.user_ids);
        return { members: users.map((u) => format(u, params)) };
      },
    }),
    route({
      method: 'GET',
      path: '/users/{user_id:int}',
      auth: 'user',
      params: userView,
      async handler({ identity, path, params }) {
        const user = await deps.repo.userById(path.user_id);
        if (!user || user.realmId !== identity.realmId) throw noSuchUser();
        return { user: format(user, params) };
      },
    }),
    route({
      method: 'DELETE',
      path: '/users/me',
      auth: 'human',
      async handler({ identity, requestId }) {
        await deactivateUser(deps.repo, identity, identity.userId, requestId);
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path: '/users/{user_id:int}',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await deactivateUser(deps.repo, identity, path.user_id, requestId);
        return {};
      },
    }),
    route({
      method: 'PATCH',
      path: '/users/{user_id:int}',
      auth: 'user',
      params: {
        role: p.json(t.literal(100, 200, 300, 400, 600)).optional(),
        full_name: p.string().optional(),
      },
      async handler({ identity, path, params, requestId }) {
        await updateUser(
          deps.repo,
          identity,
          path.user_id,
          { role: params.role, fullName: params.full_name },
          requestId,
        );
        return {};
      },
    }),
    route({
      method: 'POST',
      path: '/users/{user_id:int}/reactivate',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await reactivateUser(deps.repo, identity, path.user_id, requestId);
        return {};
      },
    }),
    route({
      method: 'GET',
      path: '/users/{email:str}',
      auth: 'user',
      params: userView,
      async handler({ identity, path, params }) {
        const user = await deps.repo.userByEmail(identity.realmId, path.email);
        if (!user) throw noSuchUser();
        return { user: format(user, params) };
      },
    }),
  ];
}
