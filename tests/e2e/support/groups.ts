import type { ApiClient, World } from '@confab/devkit';
import { serviceToken } from '@confab/devkit';
import { system } from './system';

/** The organization's system groups by name ("role:members" → id), as GET /user_groups reports them. */
export async function systemGroups(world: World): Promise<Record<string, number>> {
  const response = await world.as('iago').get('/user_groups');
  if (response.status !== 200) throw new Error(`GET /user_groups failed: ${response.text}`);
  const groups = response.body.user_groups as { id: number; name: string; is_system_group: boolean }[];
  return Object.fromEntries(groups.filter((g) => g.is_system_group).map((g) => [g.name, g.id]));
}

/** Creates a user group and returns its id (fails the test when the server refuses). */
export async function createGroup(
  client: ApiClient,
  name: string,
  params: Record<string, unknown> = {},
): Promise<number> {
  const response = await client.post('/user_groups/create', {
    name,
    description: `The ${name} group.`,
    members: [],
    ...params,
  });
  if (response.status !== 200) throw new Error(`creating group ${name} failed: ${response.text}`);
  return response.body.group_id as number;
}

type SettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** A user group as GET /user_groups describes it. */
export interface UserGroup {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  creator_id: number | null;
  date_created: number;
  is_system_group: boolean;
  deactivated: boolean;
  can_add_members_group: SettingValue;
  can_join_group: SettingValue;
  can_leave_group: SettingValue;
  can_manage_group: SettingValue;
  can_mention_group: SettingValue;
  can_remove_members_group: SettingValue;
}

/** One group as GET /user_groups (with deactivated groups) reports it. */
export async function getGroup(world: World, groupId: number): Promise<UserGroup> {
  const response = await world.as('iago').get('/user_groups', { include_deactivated_groups: true });
  const group = (response.body.user_groups as UserGroup[]).find((g) => g.id === groupId);
  if (!group) throw new Error(`group ${groupId} not listed`);
  return group;
}

/** Recursive members of a group, sorted. */
export async function membersOf(world: World, groupId: number, directOnly = false): Promise<number[]> {
  const response = await world.as('iago').get(`/user_groups/${groupId}/members`, { direct_member_only: directOnly });
  if (response.status !== 200) throw new Error(`GET members failed: ${response.text}`);
  return [...(response.body.members as number[])].sort((a, b) => a - b);
}

/** Retries `check` until it stops throwing (state that follows an event from another service). */
export async function eventually(check: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Calls the groups service's internal API directly, as another service would. */
export async function groupsInternal(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const base = system().serviceUrls.groups;
  if (!base) throw new Error('the groups service is not running');
  const response = await fetch(`${base}/internal${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-confab-identity': serviceToken(system()) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
