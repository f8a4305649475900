import { FULL_MEMBERS, ROLE_GROUP, ROLE_MEMBER, type Role } from '@confab/zulip';

// Zulip's system groups (names, descriptions, nesting, the group of each role) are @confab/zulip's; this file adds
// the membership rules that depend on time.

const DAY_MS = 86_400_000;

/** A member still in the organization's waiting period is not yet a full member (Zulip's is_provisional_member). */
export function isProvisional(dateJoined: Date, waitingPeriodDays: number, now: Date = new Date()): boolean {
  return Math.floor((now.getTime() - dateJoined.getTime()) / DAY_MS) < waitingPeriodDays;
}

/** The system groups a user belongs to directly: their role's group, and full members for settled members. */
export function systemGroupsFor(
  user: { role: Role; dateJoined: Date },
  waitingPeriodDays: number,
  now: Date = new Date(),
): string[] {
  const names = [ROLE_GROUP[user.role]];
  if (user.role === ROLE_MEMBER && !isProvisional(user.dateJoined, waitingPeriodDays, now)) names.push(FULL_MEMBERS);
  return names;
}
