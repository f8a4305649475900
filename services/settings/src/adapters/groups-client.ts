import { internal, type contracts } from '@confab/events';
import { ServiceClient } from '@confab/http';
import type { GroupDirectory } from '../domain/ports.js';

/**
 * The groups service's internal API: `GET /internal/groups/members?realm_id=R&group_ids=[..]` answers
 * `{"user_ids": [...]}` (active members, through subgroups), or a Zulip error such as 400 "Invalid user group ID: 7";
 * `POST /internal/groups/evaluate` answers `{"is_member": bool}` for a user and a group id.
 */
export class GroupsClient implements GroupDirectory {
  private readonly client: ServiceClient;

  constructor(baseUrl: string, secret: string, timeoutMs = 5000) {
    this.client = new ServiceClient({ caller: 'settings', baseUrl, secret, timeoutMs });
  }

  async isMember(realmId: number, userId: number, groupId: number): Promise<boolean> {
    const answer = await this.client.send(internal.endpoints.evaluateGroupSetting, {
      realm_id: realmId,
      user_id: userId,
      value: groupId,
    });
    return answer.is_member;
  }

  async groupsAfter(afterId: number): Promise<contracts.GroupRecord[]> {
    if (!this.client.configured) return [];
    const page = await this.client.call('GET', '/groups', internal.groupsPage, { query: { after_id: afterId } });
    return page.groups.map((g) => g.group);
  }

  async activeMembers(realmId: number, groupIds: readonly number[]): Promise<number[]> {
    const answer = await this.client.call('GET', '/groups/members', internal.groupMembers, {
      query: { realm_id: realmId, group_ids: groupIds },
    });
    return answer.user_ids;
  }
}
