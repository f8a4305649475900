import { p, route } from '@confab/http';
import type { GroupsDeps } from '../deps.js';
import {
  createGroup,
  deactivateGroup,
  groupMembers,
  groupSubgroups,
  isGroupMember,
  listGroups,
  updateGroup,
} from '../domain/groups.js';
import { updateMembers, updateSubgroups } from '../domain/membership.js';
import { actorOf, settingChangeParams, settingValueParams } from './user_groups.params.js';

export function userGroupRoutes(deps: GroupsDeps) {
  const { db } = deps;
  return [
    route({
      method: 'GET',
      path: '/user_groups',
      auth: 'user',
      params: { include_deactivated_groups: p.bool().default(false) },
      async handler({ identity, params }) {
        return { user_groups: await listGroups(db, actorOf(identity), params.include_deactivated_groups) };
      },
    }),
    route({
      method: 'POST',
      path: '/user_groups/create',
      auth: 'user',
      params: {
        name: p.string(),
        description: p.string(),
        members: p.intList(),
        subgroups: p.intList().optional(),
        ...settingValueParams,
      },
      async handler({ identity, params, requestId }) {
        const { name, description, members, subgroups, ...settings } = params;
        const groupId = await createGroup(
          db,
          actorOf(identity),
          { name, description, members, subgroups, settings },
          requestId,
        );
        return { group_id: groupId };
      },
    }),
    route({
      method: 'PATCH',
      path: '/user_groups/{user_group_id:int}',
      auth: 'user',
      params: {
        name: p.string().optional(),
        description: p.string().optional(),
        deactivated: p.bool().optional(),
        ...settingChangeParams,
      },
      async handler({ identity, path, params, requestId }) {
        const { name, description, deactivated, ...settings } = params;
        await updateGroup(
          db,
          actorOf(identity),
          path.user_group_id,
          { name, description, deactivated, settings },
          requestId,
        );
        return {};
      },
    }),
    route({
      method: 'POST',
      path: '/user_groups/{user_group_id:int}/deactivate',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await deactivateGroup(db, actorOf(identity), path.user_group_id, requestId);
        return {};
      },
    }),
    route({
      method: 'POST',
      path: '/user_groups/{user_group_id:int}/members',
      auth: 'user',
      params: {
        add: p.intList().optional(),
        delete: p.intList().optional(),
        add_subgroups: p.intList().optional(),
        delete_subgroups: p.intList().optional(),
      },
      async handler({ identity, path, params, requestId }) {
        await updateMembers(
          db,
          actorOf(identity),
          path.user_group_id,
          {
            add: params.add,
            delete: params.delete,
            addSubgroups: params.add_subgroups,
            deleteSubgroups: params.delete_subgroups,
          },
          requestId,
        );
        return {};
      },
    }),
    route({
      method: 'GET',
      path: '/user_groups/{user_group_id:int}/members',
      auth: 'user',
      params: { direct_member_only: p.bool().default(false) },
      async handler({ identity, path, params }) {
        return { members: await groupMembers(db, actorOf(identity), path.user_group_id, params.direct_member_only) };
      },
    }),
    route({
      method: 'GET',
      path: '/user_groups/{user_group_id:int}/members/{user_id:int}',
      auth: 'user',
      params: { direct_member_only: p.bool().default(false) },
      async handler({ identity, path, params }) {
        const member = await isGroupMember(
          db,
          actorOf(identity),
          path.user_group_id,
          path.user_id,
          params.direct_member_only,
        );
        return { is_user_group_member: member };
      },
    }),
    route({
      method: 'POST',
      path: '/user_groups/{user_group_id:int}/subgroups',
      auth: 'user',
      params: { add: p.intList().optional(), delete: p.intList().optional() },
      async handler({ identity, path, params, requestId }) {
        await updateSubgroups(
          db,
          actorOf(identity),
          path.user_group_id,
          { add: params.add, delete: params.delete },
          requestId,
        );
        return {};
      },
    }),
    route({
      method: 'GET',
      path: '/user_groups/{user_group_id:int}/subgroups',
      auth: 'user',
      params: { direct_subgroup_only: p.bool().default(false) },
      async handler({ identity, path, params }) {
        return {
          subgroups: await groupSubgroups(db, actorOf(identity), path.user_group_id, params.direct_subgroup_only),
        };
      },
    }),
  ];
}
