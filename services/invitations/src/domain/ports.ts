import type { Role } from '@confab/identity';
import type { Caller, Invite, NewInvite, RealmInfo, Signup } from './types.js';

/** This service's storage. */
export interface InviteRepository {
  create(invite: NewInvite): Promise<Invite>;
  byId(id: number): Promise<Invite | null>;
  byKey(key: string): Promise<Invite | null>;
  /** Links of the organization that are neither revoked nor expired at `now`, oldest first. */
  active(realmId: number, now: Date, referrerId?: number): Promise<Invite[]>;
  revoke(id: number, at: Date): Promise<void>;
  /**
   * Ends every still-valid link `referrerId` made (expiry set to `at`), once per event: false when `eventId` had been
   * handled by `consumer` already.
   */
  expireLinksOf(referrerId: number, at: Date, claim: { consumer: string; eventId: string }): Promise<boolean>;
  /** Moves a link's expiry (development and tests). */
  setExpiry(id: number, at: Date | null): Promise<boolean>;
  /** Claims an email address of an organization for a sign-up; null when a sign-up for it exists already. */
  claimSignup(invite: Invite, emailKey: string): Promise<Signup | null>;
  signupFor(realmId: number, emailKey: string): Promise<Signup | null>;
  releaseSignup(id: number): Promise<void>;
  setSignupUser(id: number, userId: number): Promise<void>;
  completeSignup(id: number, at: Date): Promise<void>;
  ping(): Promise<boolean>;
}

/** What the other services answer and do for this one (internal HTTP; their Zulip errors pass through). */
export interface Owners {
  realm(realmId: number): Promise<RealmInfo | null>;
  /** Throws `Insufficient permission` unless the caller may create links, and Zulip's group errors. */
  checkGroups(caller: Caller, groupIds: readonly number[]): Promise<void>;
  /** Throws Zulip's channel errors for the invitation's channels. */
  checkChannels(caller: Caller, streamIds: readonly number[]): Promise<void>;
  createUser(spec: {
    realmId: number;
    email: string;
    fullName: string;
    password: string;
    role: Role;
  }): Promise<{ userId: number; email: string }>;
  subscribe(realmId: number, userId: number, streamIds: readonly number[], includeDefaults: boolean): Promise<void>;
  joinGroups(realmId: number, userId: number, groupIds: readonly number[]): Promise<void>;
  sendWelcome(realmId: number, senderId: number, recipientId: number, content: string): Promise<void>;
}
