import { z } from 'zod';
import { groupRecord } from './contracts/groups.js';
import { realmEmojiRecord } from './contracts/realm_emoji.js';
import { realmRecord } from './contracts/realms.js';
import { userRecord } from './contracts/users.js';

/**
 * The answers of internal endpoints one service reads from another (`/internal/...`, docs/architecture.md
 * "Identity"), as zod schemas: the caller parses what it receives with them (ServiceClient.call of @confab/http),
 * so a change of shape on either side fails loudly instead of reading undefined.
 */

/** Settings: `GET /internal/realms?after_id=N`, organizations in id order. */
export const realmsPage = z.object({ realms: z.array(realmRecord) });
/** Settings: `GET /internal/users?after_id=N`, users in id order. */
export const usersPage = z.object({ users: z.array(userRecord) });

/** Settings: `GET /internal/realm_emoji?after_id=N`, organizations' custom emoji in organization id order. */
export const realmEmojiPage = z.object({
  realms: z.array(z.object({ realm_id: z.number().int(), realm_emoji: z.record(z.string(), realmEmojiRecord) })),
});
/** Settings: `GET /internal/personal_filters?after_id=N`, users' muted users and alert words in user id order. */
export const personalFiltersPage = z.object({
  users: z.array(
    z.object({
      user_id: z.number().int(),
      realm_id: z.number().int(),
      muted_user_ids: z.array(z.number().int()),
      alert_words: z.array(z.string()),
    }),
  ),
});

/** Groups: `POST /internal/groups/evaluate`, whether a user is in a group-valued setting. */
export const groupMembership = z.object({ is_member: z.boolean() });
/** Groups: `GET /internal/groups/members`, the active members of groups (through subgroups). */
export const groupMembers = z.object({ user_ids: z.array(z.number().int()) });
/** Groups: `GET /internal/groups?after_id=N`, groups in id order. */
export const groupsPage = z.object({ groups: z.array(z.object({ group: groupRecord })) });

/** Any JSON object: an answer the caller reads field by field itself. */
export const anyObject = z.record(z.string(), z.unknown());

/** What calls another service's internal API (ServiceClient of @confab/http has this shape). */
export interface InternalCaller {
  call<T>(
    method: string,
    path: string,
    shape: { parse(body: unknown): T },
    options?: { query?: Record<string, unknown> },
  ): Promise<T>;
}

/**
 * The settings service's organizations and users, page by page in id order: how a service fills its read model of
 * them when its database is new (the backfills of messaging and groups).
 */
export class SettingsReader {
  constructor(protected readonly settings: InternalCaller) {}

  async realmsAfter(afterId: number): Promise<z.infer<typeof realmRecord>[]> {
    return (await this.settings.call('GET', '/realms', realmsPage, { query: { after_id: afterId } })).realms;
  }

  async usersAfter(afterId: number): Promise<z.infer<typeof userRecord>[]> {
    return (await this.settings.call('GET', '/users', usersPage, { query: { after_id: afterId } })).users;
  }
}
