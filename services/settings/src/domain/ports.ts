import type { contracts } from '@confab/events';

/** What the domain needs from the outside world; adapters/ implements each over the network. */

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** False when the server has neither an SMTP server nor a development capture configured. */
  readonly enabled: boolean;
  send(mail: OutgoingMail): Promise<void>;
}

/** The groups service's view of group membership. */
export interface GroupDirectory {
  /**
   * Active members of the groups (through subgroups too), all in the realm. Throws the groups service's own
   * error (e.g. "Invalid user group ID: 7") when a group does not exist there.
   */
  activeMembers(realmId: number, groupIds: readonly number[]): Promise<number[]>;
  /** Whether an active user is in the group, directly or through subgroups. */
  isMember(realmId: number, userId: number, groupId: number): Promise<boolean>;
  /** Groups of any organization with an id above `afterId`, in id order, a page at a time. */
  groupsAfter(afterId: number): Promise<contracts.GroupRecord[]>;
}

/** The messaging service's view of the messages a user received. */
export interface ReceivedMessages {
  /** The id of the newest message the user received (sent by or to them), -1 when none. */
  maxMessageId(userId: number): Promise<number>;
}

/** The messaging service's view of channels (organization settings name channels). */
export interface ChannelDirectory {
  /** Whether the channel exists in the organization and is not archived. */
  channelExists(realmId: number, channelId: number): Promise<boolean>;
}

/** Where uploaded images (custom emoji, avatars, the organization's icon and logo) are kept, per organization. */
export interface ImageFiles {
  save(realmId: number, fileName: string, data: Buffer): Promise<void>;
  /** The image, or null when there is none. */
  read(realmId: number, fileName: string): Promise<Buffer | null>;
  /** Removes the image (nothing when there is none). */
  remove(realmId: number, fileName: string): Promise<void>;
}

/** Image thumbnails (Zulip's zerver/lib/thumbnail.py resize_avatar). */
export interface ImageResizer {
  /** A `size`×`size` PNG cropped to the centre, or null when the data is no image it can decode. */
  squarePng(data: Buffer, size: number): Promise<Buffer | null>;
}

/** One user's presence: Unix seconds; `activeTimestamp` null when the user was never active (only idle). */
export interface PresenceEntry {
  userId: number;
  activeTimestamp: number | null;
  idleTimestamp: number;
  /** The realm's update counter when this entry last changed (Zulip's `last_update_id`). */
  lastUpdateId: number;
}

/** What recording a presence report did. */
export interface PresenceWrite {
  /** The user had no entry before. */
  created: boolean;
  /** The entry changed (and took a new update id). */
  changed: boolean;
  /** The user had not been active for longer than `onlineGapSeconds` and now is. */
  becameOnline: boolean;
  entry: PresenceEntry;
}

/** Thresholds of Zulip's presence rules, applied atomically by the store. */
export interface PresenceRules {
  /** A timestamp moves only when it is older than this (several open clients report every minute). */
  minUpdateSeconds: number;
  /** Not active for longer than this and now active: "came online". */
  onlineGapSeconds: number;
}

/** Presence: kept outside the database, shared by every replica, forgotten by itself after `retention`. */
export interface PresenceStore {
  /** Applies one report (`active` or idle) at `now` under Zulip's rules. */
  report(realmId: number, userId: number, now: number, active: boolean, rules: PresenceRules): Promise<PresenceWrite>;
  /** Replaces the user's entry (presence sharing switched on or off). */
  reset(realmId: number, userId: number, entry: { active: number | null; idle: number }): Promise<PresenceWrite>;
  /** Entries changed after `afterUpdateId`, or (when null) connected at or after `since`. */
  realm(realmId: number, query: { afterUpdateId: number | null; since: number }): Promise<PresenceEntry[]>;
  user(realmId: number, userId: number): Promise<PresenceEntry | null>;
  remove(realmId: number, userId: number): Promise<void>;
}

/** Tokens from an OAuth provider; `expiresAt` in epoch milliseconds. */
export interface TokenSet {
  accessToken: string;
  refreshToken: string | null;
  expiresAt: number | null;
}

/** The provider refused (bad code, revoked refresh token): the user has to authorize again. */
export class OAuthRefusedError extends Error {}

export type CreateMeetingResult = { kind: 'created'; url: string } | { kind: 'unauthorized' } | { kind: 'failed' };

/** A meeting provider's OAuth and meeting endpoints. Network failures throw plain errors. */
export interface MeetingApi {
  exchangeCode(code: string, redirectUri: string): Promise<TokenSet>;
  refresh(refreshToken: string): Promise<TokenSet>;
  createMeeting(accessToken: string): Promise<CreateMeetingResult>;
}
