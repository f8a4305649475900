import { p, t } from '@confab/http';
import type { UserIdentity } from '@confab/identity';
import type { Actor } from '../domain/types.js';

/** A group-setting value: a group id or {"direct_members": [...], "direct_subgroups": [...]}. */
export const settingValue = t.union(
  t.int(),
  t.object({ direct_members: t.list(t.int()), direct_subgroups: t.list(t.int()) }),
);

/** An update of a group-setting value: `new`, and the `old` value the client expects to replace. */
export const settingChange = t.object({ new: settingValue, old: t.optional(settingValue) });

export const settingValueParams = {
  can_add_members_group: p.json(settingValue).optional(),
  can_join_group: p.json(settingValue).optional(),
  can_leave_group: p.json(settingValue).optional(),
  can_manage_group: p.json(settingValue).optional(),
  can_mention_group: p.json(settingValue).optional(),
  can_remove_members_group: p.json(settingValue).optional(),
};

export const settingChangeParams = {
  can_add_members_group: p.json(settingChange).optional(),
  can_join_group: p.json(settingChange).optional(),
  can_leave_group: p.json(settingChange).optional(),
  can_manage_group: p.json(settingChange).optional(),
  can_mention_group: p.json(settingChange).optional(),
  can_remove_members_group: p.json(settingChange).optional(),
};

export function actorOf(identity: UserIdentity): Actor {
  return { userId: identity.userId, realmId: identity.realmId, role: identity.role, isBot: identity.isBot };
}
