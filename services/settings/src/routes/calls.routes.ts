import { invalid } from '@confab/errors';
import { p, route } from '@confab/http';
import type { SettingsDeps } from '../deps.js';
import { OAuthMeetingProvider } from '../domain/meetings/oauth-provider.js';
import { bigBlueButtonUrl } from '../domain/meetings/bigbluebutton.js';
import { notConfigured } from '../domain/meetings/provider.js';
import { caller } from '../domain/directory.js';

export function callRoutes(deps: SettingsDeps) {
  return [
    route({
      method: 'GET',
      path: '/calls/bigbluebutton/create',
      auth: 'user',
      params: { meeting_name: p.string(), voice_only: p.bool().default(false) },
      handler: ({ identity, params }) => ({
        url: bigBlueButtonUrl(deps.config.internalSecret, identity.userId, params.meeting_name, params.voice_only),
      }),
    }),
    route({
      method: 'POST',
      path: '/calls/meetingprovider/create',
      auth: 'user',
      async handler({ identity, requestId }) {
        return { url: await deps.meetings.createMeeting(await caller(deps.db, identity), requestId) };
      },
    }),
    route({
      // Confab's start of the OAuth flow (Zulip's web app opens /calls/<provider>/register with a session instead):
      // the client opens the returned URL in a browser, and the provider redirects back to the complete page.
      method: 'POST',
      path: '/calls/meetingprovider/register',
      auth: 'human',
      async handler({ identity }) {
        const provider = deps.meetings;
        if (!(provider instanceof OAuthMeetingProvider)) {
          if (provider.kind === 'none') throw notConfigured();
          throw invalid(`${provider.name} needs no authorization`);
        }
        return { url: await provider.authorizationUrl(await caller(deps.db, identity)) };
      },
    }),
  ];
}
