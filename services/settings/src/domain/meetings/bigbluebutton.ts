import { createHmac, randomInt } from 'node:crypto';

/**
 * Zulip's BigBlueButton links (zerver/views/video_calls.py). Creating one needs no BigBlueButton server: the link
 * carries the meeting's details, signed, to `/calls/bigbluebutton/join`, which would create the meeting on the
 * server and redirect there. Confab has no BigBlueButton settings, so the join page answers as a Zulip server
 * without BIG_BLUE_BUTTON_URL does; the links are signed all the same (with the internal secret), so that they would
 * stay unforgeable once a server is configured.
 */
export const BIGBLUEBUTTON_JOIN_PATH = '/calls/bigbluebutton/join';

interface MeetingDetails {
  meeting_id: string;
  name: string;
  lock_settings_disable_cam: boolean;
  moderator: number;
}

const signature = (secret: string, value: string) =>
  createHmac('sha256', secret).update(`bigbluebutton:${value}`).digest('base64url');

/** GET /calls/bigbluebutton/create: the join link of a new meeting, moderated by its creator. */
export function bigBlueButtonUrl(secret: string, userId: number, meetingName: string, voiceOnly: boolean): string {
  const details: MeetingDetails = {
    meeting_id: `zulip-${randomInt(100_000_000_000, 999_999_999_999)}`,
    name: meetingName,
    lock_settings_disable_cam: voiceOnly,
    moderator: userId,
  };
  const value = Buffer.from(JSON.stringify(details)).toString('base64url');
  const signed = `${value}:${signature(secret, value)}`;
  return `${BIGBLUEBUTTON_JOIN_PATH}?${new URLSearchParams({ bigbluebutton: signed }).toString()}`;
}

/** What the join page answers: Zulip checks the server's configuration before the link's signature; Confab has none. */
export const BIGBLUEBUTTON_NOT_CONFIGURED = 'BigBlueButton is not configured.';
