import { ConfabError, serviceUnavailable } from '@confab/errors';
import { signIdentity, IDENTITY_HEADER } from '@confab/identity';
import type { GroupDirectory } from '../domain/ports.js';

/**
 * The groups service's internal API: `GET /internal/groups/members?realm_id=R&group_ids=[..]` answers
 * `{"user_ids": [...]}` (active members, through subgroups), or a Zulip error such as 400 "Invalid user group ID: 7".
 */
export class GroupsClient implements GroupDirectory {
  constructor(
    private readonly baseUrl: string,
    private readonly secret: string,
    private readonly timeoutMs = 5000,
  ) {}

  async activeMembers(realmId: number, groupIds: readonly number[]): Promise<number[]> {
    if (!this.baseUrl) throw serviceUnavailable();
    const query = new URLSearchParams({ realm_id: String(realmId), group_ids: JSON.stringify(groupIds) });
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}/internal/groups/members?${query.toString()}`, {
        headers: { [IDENTITY_HEADER]: signIdentity({ kind: 'service', service: 'settings' }, this.secret) },
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
