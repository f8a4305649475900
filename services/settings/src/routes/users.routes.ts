import { p, route, t } from '@confab/http';
import { ROLE_ADMINISTRATOR, ROLE_GUEST, ROLE_MEMBER, ROLE_MODERATOR, ROLE_OWNER } from '@confab/identity';
import type { SettingsDeps } from '../deps.js';
import { deactivateUser, reactivateUser, updateUser } from '../domain/accounts.js';
import { deleteAvatar, setAvatar } from '../domain/avatars.js';
import { getUser, listUsers, ownUser } from '../domain/directory.js';
import { createUserByAdministrator } from '../domain/invited-users.js';
import { updateProfileData } from '../domain/profile-fields.js';

/** A custom profile field's value as clients send it (null or empty: none). */
const profileValue = t.nullable(t.union(t.string(), t.list(t.int())));

export function userRoutes(deps: SettingsDeps) {
  const { db } = deps;
  const userView = { client_gravatar: p.bool().default(true), include_custom_profile_fields: p.bool().default(false) };
  const view = (params: { client_gravatar: boolean; include_custom_profile_fields: boolean }) => ({
    clientGravatar: params.client_gravatar,
    includeCustomProfileFields: params.include_custom_profile_fields,
  });

  return [
    route({
      method: 'GET',
      path: '/users/me',
      auth: 'user',
      handler: ({ identity }) => ownUser(deps, identity),
    }),
    route({
      method: 'GET',
      path: '/users',
      auth: 'user',
      params: { ...userView, user_ids: p.intList().optional() },
      async handler({ identity, params }) {
        return { members: await listUsers(deps, identity, params.user_ids, view(params)) };
      },
    }),
    route({
      method: 'GET',
      path: '/users/{user_id:int}',
      auth: 'user',
      params: userView,
      async handler({ identity, path, params }) {
        return { user: await getUser(db, identity, { id: path.user_id }, view(params), deps.config.externalUrl) };
      },
    }),
    route({
      method: 'POST',
      path: '/users',
      auth: 'user',
      params: { email: p.string(), password: p.string(), full_name: p.string() },
      async handler({ identity, params, requestId }) {
        const { config } = deps;
        const user = await createUserByAdministrator(
          {
            db,
            externalUrl: config.externalUrl,
            passwordHashCost: config.passwordHashCost,
            passwordPolicy: config.passwordPolicy,
            requestId,
          },
          identity,
          { email: params.email, fullName: params.full_name, password: params.password },
        );
        return { user_id: user.id };
      },
    }),
    route({
      method: 'PATCH',
      path: '/users/me/profile_data',
      auth: 'user',
      params: { data: p.json(t.list(t.object({ id: t.int(), value: profileValue }))) },
      async handler({ identity, params, requestId }) {
        await updateProfileData(db, identity, identity.userId, params.data, null, requestId);
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path: '/users/me/profile_data',
      auth: 'user',
      params: { data: p.json(t.list(t.int())) },
      async handler({ identity, params, requestId }) {
        await updateProfileData(db, identity, identity.userId, null, params.data, requestId);
        return {};
      },
    }),
    route({
      method: 'POST',
      path: '/users/me/avatar',
      auth: 'user',
      handler: ({ identity, body, requestId }) => setAvatar(deps, identity, body.files, requestId),
    }),
    route({
      method: 'DELETE',
      path: '/users/me/avatar',
      auth: 'user',
      handler: ({ identity, requestId }) => deleteAvatar(deps, identity, requestId),
    }),
    route({
      method: 'DELETE',
      path: '/users/me',
      auth: 'human',
      async handler({ identity, requestId }) {
        await deactivateUser(deps, identity, identity.userId, requestId);
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path: '/users/{user_id:int}',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await deactivateUser(deps, identity, path.user_id, requestId);
        return {};
      },
    }),
    route({
      method: 'PATCH',
      path: '/users/{user_id:int}',
      auth: 'user',
      params: {
        role: p.json(t.literal(ROLE_OWNER, ROLE_ADMINISTRATOR, ROLE_MODERATOR, ROLE_MEMBER, ROLE_GUEST)).optional(),
        full_name: p.string({ nulCheckedByDomain: true }).optional(),
        profile_data: p.json(t.list(t.object({ id: t.int(), value: profileValue }))).optional(),
      },
      async handler({ identity, path, params, requestId }) {
        // Zulip's order: access (administrators), the role, the name, then the profile data.
        await updateUser(db, identity, path.user_id, { role: params.role, fullName: params.full_name }, requestId);
        if (params.profile_data)
          await updateProfileData(db, identity, path.user_id, params.profile_data, null, requestId);
        return {};
      },
    }),
    route({
      method: 'POST',
      path: '/users/{user_id:int}/reactivate',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await reactivateUser(db, identity, path.user_id, requestId);
        return {};
      },
    }),
    route({
      method: 'GET',
      path: '/users/{email:str}',
      auth: 'user',
      params: userView,
      async handler({ identity, path, params }) {
        return {
          user: await getUser(db, identity, { email: path.email }, view(params), deps.config.externalUrl),
        };
      },
    }),
  ];
}
