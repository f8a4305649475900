import { ConfabError, serviceUnavailable } from '@confab/errors';
import { contracts } from '@confab/events';
import { signIdentity, IDENTITY_HEADER } from '@confab/identity';
import type { GroupDirectory } from '../domain/ports.js';

/**
 * The groups service's internal API: `GET /internal/groups/members?realm_id=R&group_ids=[..]` answers
 * `{"user_ids": [...]}` (active members, through subgroups), or a Zulip error such as 400 "Invalid user group ID: 7";
 * `POST /internal/groups/evaluate` answers `{"is_member": bool}` for a user and a group id.
 */
export class GroupsClient implements GroupDirectory {
  constructor(
    private readonly baseUrl: string,
    private readonly secret: string,
    private readonly timeoutMs = 5000,
  ) {}

  private token(): string {
    return signIdentity({ kind: 'service', service: 'settings' }, this.secret);
  }

  async isMember(realmId: number, userId: number, groupId: number): Promise<boolean> {
    if (!this.baseUrl) throw serviceUnavailable();
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/internal/groups/evaluate`, {
        method: 'POST',
        headers: { [IDENTITY_HEADER]: this.token(), 'content-type': 'application/json' },
        body: JSON.stringify({ realm_id: realmId, user_id: userId, value: groupId }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw serviceUnavailable();
    }
    const body = (await response.json().catch(() => ({}))) as { is_member?: unknown };
    if (!response.ok || typeof body.is_member !== 'boolean') throw serviceUnavailable();
    return body.is_member;
  }

  async groupsAfter(afterId: number): Promise<contracts.GroupRecord[]> {
    if (!this.baseUrl) return [];
    const response = await fetch(`${this.baseUrl}/internal/groups?after_id=${afterId}`, {
      headers: { [IDENTITY_HEADER]: this.token() },
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!response.ok) throw new Error(`groups /internal/groups answered ${response.status}`);
    const body = (await response.json()) as { groups: { group: unknown }[] };
    return body.groups.map((g) => contracts.groupRecord.parse(g.group));
  }

  async activeMembers(realmId: number, groupIds: readonly number[]): Promise<number[]> {
    if (!this.baseUrl) throw serviceUnavailable();
    const query = new URLSearchParams({ realm_id: String(realmId), group_ids: JSON.stringify(groupIds) });
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/internal/groups/members?${query.toString()}`, {
        headers: { [IDENTITY_HEADER]: this.token() },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw serviceUnavailable();
    }
    const body = (await response.json().catch(() => ({}))) as { user_ids?: unknown; msg?: unknown; code?: unknown };
    if (response.status === 400 && typeof body.msg === 'string') {
      throw new ConfabError(body.msg, { code: typeof body.code === 'string' ? body.code : 'BAD_REQUEST' });
    }
    if (!response.ok || !Array.isArray(body.user_ids) || !body.user_ids.every((id) => Number.isInteger(id)))
      throw serviceUnavailable();
    return body.user_ids as number[];
  }
}
