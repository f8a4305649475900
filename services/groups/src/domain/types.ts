import { contracts } from '@confab/events';
import type { Role } from '@confab/identity';

export type SettingName = (typeof contracts.GROUP_PERMISSION_SETTINGS)[number];
export const SETTING_NAMES: readonly SettingName[] = contracts.GROUP_PERMISSION_SETTINGS;

/** An anonymous group: a permission held by these users and the members of these groups. */
export interface AnonymousValue {
  direct_members: number[];
  direct_subgroups: number[];
}

/** Zulip's group-setting value: a named group's id or an anonymous group. */
export type SettingValue = number | AnonymousValue;

export type GroupSettings = Record<SettingName, SettingValue>;

export interface Group {
  id: number;
  realmId: number;
  name: string;
  description: string;
  isSystemGroup: boolean;
  deactivated: boolean;
  creatorId: number | null;
  dateCreated: Date;
  settings: GroupSettings;
}

/** This service's copy of a user (from `user.*` events). */
export interface GroupUser {
  id: number;
  realmId: number;
  role: Role;
  isBot: boolean;
  isActive: boolean;
  dateJoined: Date;
}

/** This service's copy of an organization (from `realm.*` events). */
export interface RealmInfo {
  id: number;
  permissions: Record<string, contracts.GroupRef>;
  waitingPeriodThreshold: number;
}

/** Who is asking: the authenticated user as the gateway's identity token describes them. */
export interface Actor {
  userId: number;
  realmId: number;
  role: Role;
  isBot: boolean;
}

export interface NewGroup {
  /** An id allocated beforehand (an imported group, whose id other services already refer to). */
  id?: number;
  realmId: number;
  name: string;
  description: string;
  isSystemGroup: boolean;
  creatorId: number | null;
  settings: GroupSettings;
  /** Imported groups keep their date and state. */
  dateCreated?: Date;
  deactivated?: boolean;
}

export interface GroupPatch {
  name?: string;
  description?: string;
  deactivated?: boolean;
  settings?: Partial<GroupSettings>;
}

export function isAnonymous(value: SettingValue): value is AnonymousValue {
  return typeof value !== 'number';
}
