import { randomBytes } from 'node:crypto';
import { invalid } from '@confab/errors';
import type { User } from '../types.js';

/** What POST /calls/meetingprovider/create uses, chosen by server configuration. */
export interface MeetingProvider {
  /** The provider's name in messages. */
  readonly name: string;
  /** `oauth` providers need each user's authorization first (POST /calls/meetingprovider/register). */
  readonly kind: 'none' | 'link' | 'oauth';
  /** Whether the user can create meetings without authorizing first (has_meetingprovider_token). */
  hasToken(user: User): Promise<boolean>;
  createMeeting(user: User, requestId: string | null): Promise<string>;
}

export const notConfigured = () => invalid('No meeting provider is configured on this server.');

export class NoMeetingProvider implements MeetingProvider {
  readonly name = 'Meeting provider';
  readonly kind = 'none';

  hasToken(): Promise<boolean> {
    return Promise.resolve(false);
  }

  createMeeting(): Promise<string> {
    return Promise.reject(notConfigured());
  }
}

const ROOM_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A room name nobody can guess: 20 characters (103 bits), no account needed (Jitsi creates rooms on first join). */
export function randomRoomName(): string {
  let room = '';
  while (room.length < 20) {
    for (const byte of randomBytes(24)) if (byte < 252 && room.length < 20) room += ROOM_ALPHABET[byte % 36];
  }
  return room;
}

/** Jitsi-style servers: a meeting is just a link to a fresh room. */
export class LinkMeetingProvider implements MeetingProvider {
  readonly kind = 'link';

  constructor(
    readonly name: string,
    private readonly serverUrl: string,
  ) {}

  hasToken(): Promise<boolean> {
    return Promise.resolve(true);
  }

  createMeeting(): Promise<string> {
    return Promise.resolve(`${this.serverUrl}/${randomRoomName()}`);
  }
}
