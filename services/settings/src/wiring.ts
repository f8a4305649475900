import type { Logger } from '@confab/logging';
import { HttpMeetingApi } from './adapters/meeting-api.js';
import type { SettingsConfig } from './config.js';
import { OAuthMeetingProvider } from './domain/meetings/oauth-provider.js';
import { LinkMeetingProvider, NoMeetingProvider, type MeetingProvider } from './domain/meetings/provider.js';
import { TokenSealer } from './domain/meetings/token-sealer.js';
import type { Database } from './domain/store.js';

export const OAUTH_COMPLETE_PATH = '/calls/meetingprovider/complete';

/** The meeting provider the configuration names (CONFAB_MEETING_PROVIDER). */
export function buildMeetingProvider(config: SettingsConfig, db: Database, logger: Logger): MeetingProvider {
  const meetings = config.meetings;
  switch (meetings.provider) {
    case '':
      return new NoMeetingProvider();
    case 'jitsi':
      return new LinkMeetingProvider(meetings.name, meetings.jitsiServerUrl);
    case 'oauth':
      return new OAuthMeetingProvider(
        { name: meetings.name, ...meetings.oauth, redirectUri: `${config.externalUrl}${OAUTH_COMPLETE_PATH}` },
        new HttpMeetingApi(meetings.oauth),
        db,
        new TokenSealer(meetings.tokenKey),
        logger,
      );
  }
}
