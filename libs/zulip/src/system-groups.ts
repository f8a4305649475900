import { ROLE_ADMINISTRATOR, ROLE_GUEST, ROLE_MEMBER, ROLE_MODERATOR, ROLE_OWNER, type Role } from './roles.js';

/** The names of Zulip's system groups (SystemGroups). */
export const NOBODY = 'role:nobody';
export const OWNERS = 'role:owners';
export const ADMINISTRATORS = 'role:administrators';
export const MODERATORS = 'role:moderators';
export const FULL_MEMBERS = 'role:fullmembers';
export const MEMBERS = 'role:members';
export const EVERYONE = 'role:everyone';
export const INTERNET = 'role:internet';

export type SystemGroupName =
  | typeof NOBODY
  | typeof OWNERS
  | typeof ADMINISTRATORS
  | typeof MODERATORS
  | typeof FULL_MEMBERS
  | typeof MEMBERS
  | typeof EVERYONE
  | typeof INTERNET;

/**
 * Zulip's system groups in creation order, each with its description and the group nested directly inside it
 * (create_system_user_groups_for_realm): owners ⊂ administrators ⊂ moderators ⊂ full members ⊂ members ⊂
 * everyone ⊂ internet; nobody stays empty.
 */
export const SYSTEM_GROUPS: readonly {
  name: SystemGroupName;
  description: string;
  subgroup: SystemGroupName | null;
}[] = [
  { name: NOBODY, description: 'Nobody', subgroup: null },
  { name: OWNERS, description: 'Owners of this organization', subgroup: null },
  { name: ADMINISTRATORS, description: 'Administrators of this organization, including owners', subgroup: OWNERS },
  {
    name: MODERATORS,
    description: 'Moderators of this organization, including administrators',
    subgroup: ADMINISTRATORS,
  },
  {
    name: FULL_MEMBERS,
    description: 'Members of this organization, not including new accounts and guests',
    subgroup: MODERATORS,
  },
  { name: MEMBERS, description: 'Members of this organization, not including guests', subgroup: FULL_MEMBERS },
  { name: EVERYONE, description: 'Everyone in this organization, including guests', subgroup: MEMBERS },
  { name: INTERNET, description: 'Everyone on the Internet', subgroup: EVERYONE },
];

/** The system group a user of each role is a direct member of (Zulip's SYSTEM_USER_GROUP_ROLE_MAP). */
export const ROLE_GROUP: Readonly<Record<Role, SystemGroupName>> = {
  [ROLE_OWNER]: OWNERS,
  [ROLE_ADMINISTRATOR]: ADMINISTRATORS,
  [ROLE_MODERATOR]: MODERATORS,
  [ROLE_MEMBER]: MEMBERS,
  [ROLE_GUEST]: EVERYONE,
};
