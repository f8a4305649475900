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
