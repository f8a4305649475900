import type { OutboxRecord } from '@confab/events';
import type { Role } from '@confab/identity';
import type { Caller, Invite, NewInvite, RealmInfo, Signup } from './types.js';

/** This service's storage. */
export interface InviteRepository {
  create(invite: NewInvite, events?: readonly OutboxRecord[]): Promise<Invite>;
  /**
   * Email invitations, with their events, in one transaction; null (nothing written) when the organization's email
   * invitations since `limit.since` and these would be more than `limit.max` (checked under a lock per organization).
   */
  createMany(
    invites: readonly NewInvite[],
    events: readonly OutboxRecord[],
    limit: { realmId: number; since: Date; max: number },
  ): Promise<Invite[] | null>;
  /** How many invitation mails the organization sent since `since` (invitations made and mailed again). */
  emailInvitesSince(realmId: number, since: Date): Promise<number>;
  /**
   * Counts one more mail of `invite` (a resend), with its events, unless the organization's mails since `limit.since`
   * would then be more than `limit.max`: false, nothing written (checked under the same lock as createMany).
   */
  recordResend(invite: Invite, events: readonly OutboxRecord[], limit: { since: Date; max: number }): Promise<boolean>;
  /** An email invitation's sign-up used it up. */
  markUsed(id: number, at: Date): Promise<void>;
  byId(id: number): Promise<Invite | null>;
  byKey(key: string): Promise<Invite | null>;
  /** Links of the organization that are neither revoked nor expired at `now`, oldest first. */
  active(realmId: number, now: Date, referrerId?: number): Promise<Invite[]>;
  revoke(id: number, at: Date, events?: readonly OutboxRecord[]): Promise<void>;
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
    /** Null: an account that signs in with the company's identity (SSO). */
    password: string | null;
    role: Role;
  }): Promise<{ userId: number; email: string }>;
  subscribe(realmId: number, userId: number, streamIds: readonly number[], includeDefaults: boolean): Promise<void>;
  joinGroups(realmId: number, userId: number, groupIds: readonly number[]): Promise<void>;
  /** A direct message to `recipientId`, from `senderId` or from the organization's Notification Bot. */
  sendWelcome(
    realmId: number,
    senderId: number,
    recipientId: number,
    content: string,
    fromNotificationBot?: boolean,
  ): Promise<void>;
  /** Whether the caller holds a group-valued permission of the organization (a system group name or a group id). */
  holds(caller: Caller, value: string | number): Promise<boolean>;
  /** Addresses among `emails` that have an account in the organization. */
  existingAccounts(realmId: number, emails: readonly string[]): Promise<{ email: string; deactivated: boolean }[]>;
  /** Addresses among `emails` the organization's email rules refuse, with the reason (Zulip's invitation texts). */
  refusedInvitees(realmId: number, emails: readonly string[]): Promise<{ email: string; reason: string }[]>;
  /** A member's name and email address, as settings has them. */
  person(userId: number): Promise<{ fullName: string; email: string } | null>;
  /** Mails through the server's transport; false when the server sends no mail. */
  sendMail(mail: { to: string; subject: string; text: string }): Promise<boolean>;
}
