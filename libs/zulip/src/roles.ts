/** Zulip's user roles (UserProfile.ROLE_*), as the API sends them in `role`. */
export const ROLE_OWNER = 100;
export const ROLE_ADMINISTRATOR = 200;
export const ROLE_MODERATOR = 300;
export const ROLE_MEMBER = 400;
export const ROLE_GUEST = 600;

export type Role =
  typeof ROLE_OWNER | typeof ROLE_ADMINISTRATOR | typeof ROLE_MODERATOR | typeof ROLE_MEMBER | typeof ROLE_GUEST;

/** Every role, most privileged first. */
export const ROLES: readonly Role[] = [ROLE_OWNER, ROLE_ADMINISTRATOR, ROLE_MODERATOR, ROLE_MEMBER, ROLE_GUEST];

/** Owners and administrators (Zulip's is_realm_admin). */
export const isAdministratorRole = (role: number): boolean => role <= ROLE_ADMINISTRATOR;

/** How Zulip's apps name each role (settings_config.user_role_values). */
export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  [ROLE_OWNER]: 'Owner',
  [ROLE_ADMINISTRATOR]: 'Administrator',
  [ROLE_MODERATOR]: 'Moderator',
  [ROLE_MEMBER]: 'Member',
  [ROLE_GUEST]: 'Guest',
};

/** A role's label, or undefined for a number that is no role. */
export const roleLabel = (role: number): string | undefined => (ROLE_LABELS as Record<number, string>)[role];
