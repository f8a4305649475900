import type { Role } from '@confab/identity';

/** A reusable invitation link as this service stores it. */
export interface Invite {
  id: number;
  key: string;
  realmId: number;
  realmUrl: string;
  referrerId: number;
  inviteAs: Role;
  streamIds: number[];
  groupIds: number[];
  includeRealmDefaultSubscriptions: boolean;
  welcomeMessageCustomText: string | null;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  /** An email invitation (one person, one sign-up); null for a reusable link. */
  email: string | null;
  notifyReferrerOnJoin: boolean;
  /** When an email invitation's sign-up used it up. */
  usedAt: Date | null;
}

/** `createdAt` comes from the same clock reading as the expiry, so `expiry_date - invited` is exact. */
export type NewInvite = Omit<Invite, 'id' | 'revokedAt' | 'usedAt'>;

/** Who is asking, as the gateway's identity token says. */
export interface Caller {
  userId: number;
  realmId: number;
  role: Role;
  isBot: boolean;
}

/** An organization as the settings service describes it. */
export interface RealmInfo {
  id: number;
  url: string;
  name: string;
  deactivated: boolean;
  /** Group-valued organization permissions (`can_invite_users_group`, …): a system group name or a group id. */
  permissions: Record<string, string | number>;
}

/** A person's sign-up through a link. */
export interface Signup {
  id: number;
  inviteId: number;
  realmId: number;
  emailKey: string;
  userId: number | null;
  completedAt: Date | null;
}
