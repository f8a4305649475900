import { invalid } from '@confab/errors';
import { route } from '@confab/http';
import type { SettingsDeps } from '../deps.js';
import { OAuthMeetingProvider } from '../domain/meetings/oauth-provider.js';
import { notConfigured } from '../domain/meetings/provider.js';
import type { User } from '../domain/types.js';

export function callRoutes(deps: SettingsDeps) {
  const caller = async (userId: number): Promise<User> => {
    const user = await deps.repo.userById(userId);
    if (!user) throw invalid('Account is deactivated');
    return user;
  };
  return [
    route({
      method: 'POST',
      path: '/calls/meetingprovider/create',
      auth: 'user',
      async handler({ identity, requestId }) {
        return { url: await deps.meetings.createMeeting(await caller(identity.userId), requestId) };
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
        return { url: await provider.authorizationUrl(await caller(identity.userId)) };
      },
    }),
  ];
}
