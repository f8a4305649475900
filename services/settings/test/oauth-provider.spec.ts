import { createLogger } from '@confab/logging';
import { OAuthMeetingProvider, type OAuthProviderSettings } from '../src/domain/meetings/oauth-provider';
import { TokenSealer } from '../src/domain/meetings/token-sealer';
import type { MeetingApi, TokenSet } from '../src/domain/ports';
import type { Database, MeetingTokenStore } from '../src/domain/store';
import type { User } from '../src/domain/types';

const user = { id: 7, realmId: 3 } as User;
const settings: OAuthProviderSettings = {
  name: 'Zoom',
  clientId: 'client',
  clientSecret: 'secret',
  authorizeUrl: 'http://provider.test/authorize',
  tokenUrl: 'http://provider.test/token',
  createUrl: 'http://provider.test/meetings',
  scope: '',
  redirectUri: 'http://chat.test/calls/meetingprovider/complete',
};

/** The provider over in-memory stand-ins for its token table and the service's outbox transaction. */
function setup(overrides: Partial<OAuthProviderSettings> = {}, api: Partial<MeetingApi> = {}) {
  const sealed = new Map<number, { provider: string; sealed: string }>();
  const published: string[] = [];
  const meetingTokens = {
    get: (userId: number, provider: string) =>
      Promise.resolve(sealed.get(userId)?.provider === provider ? sealed.get(userId)!.sealed : null),
    put: (userId: number, provider: string, value: string) =>
      Promise.resolve(void sealed.set(userId, { provider, sealed: value })),
    remove: (userId: number) => Promise.resolve(sealed.delete(userId)),
  } as unknown as MeetingTokenStore;
  const db = {
    store: { meetingTokens },
    write: async (
      fn: (
        store: unknown,
      ) => Promise<{ result: unknown; events: { routingKey: string; envelope: { payload: unknown } }[] }>,
    ) => {
      const { result, events } = await fn({ meetingTokens });
      for (const e of events) published.push(`${e.routingKey} ${JSON.stringify(e.envelope.payload)}`);
      return result;
    },
  } as unknown as Database;
  const fullApi: MeetingApi = {
    exchangeCode: () => Promise.reject(new Error('not used')),
    refresh: () => Promise.reject(new Error('not used')),
    createMeeting: () => Promise.resolve({ kind: 'created', url: 'https://meet.test/1' }),
    ...api,
  };
  const sealer = new TokenSealer('unit-test-token-key-0123456789');
  const provider = new OAuthMeetingProvider(
    { ...settings, ...overrides },
    fullApi,
    db,
    sealer,
    createLogger({ name: 'test', level: 'silent' }),
  );
  const store = (token: TokenSet, key = sealer) =>
    sealed.set(user.id, { provider: 'oauth:provider.test', sealed: key.seal(token, `${user.id}:oauth:provider.test`) });
  return { provider, sealed, published, store };
}

const expectMessage = async (promise: Promise<unknown>, msg: string, code = 'BAD_REQUEST') => {
  await expect(promise).rejects.toMatchObject({ message: msg, code, status: 400 });
};

describe('OAuthMeetingProvider', () => {
  it('says the credentials are missing when the server lacks them', async () => {
    const { provider } = setup({ clientSecret: '' });
    await expectMessage(provider.createMeeting(user), 'Zoom credentials have not been configured');
    await expectMessage(provider.authorizationUrl(user), 'Zoom credentials have not been configured');
    expect(await provider.hasToken(user)).toBe(false);
  });

  it('creates meetings with a stored token and keeps it when the provider merely fails', async () => {
    let kind: 'created' | 'failed' = 'failed';
    const { provider, store, sealed } = setup(
      {},
      { createMeeting: () => Promise.resolve(kind === 'created' ? { kind, url: 'https://meet.test/9' } : { kind }) },
    );
    store({ accessToken: 'a', refreshToken: 'r', expiresAt: Date.now() + 3_600_000 });
    await expectMessage(provider.createMeeting(user), 'Failed to create Zoom call');
    expect(sealed.has(user.id)).toBe(true);
    kind = 'created';
    expect(await provider.createMeeting(user)).toBe('https://meet.test/9');
  });

  it('treats a network failure as a failed call, not a bad token', async () => {
    const { provider, store, sealed } = setup({}, { createMeeting: () => Promise.reject(new Error('ECONNREFUSED')) });
    store({ accessToken: 'a', refreshToken: null, expiresAt: null });
    await expectMessage(provider.createMeeting(user), 'Failed to create Zoom call');
    expect(sealed.has(user.id)).toBe(true);
  });

  it('drops an expired token that cannot be refreshed and announces it', async () => {
    const { provider, store, sealed, published } = setup();
    store({ accessToken: 'a', refreshToken: null, expiresAt: Date.now() - 1000 });
    await expectMessage(provider.createMeeting(user), 'Invalid Zoom access token', 'INVALID_VIDEO_CALL_PROVIDER_TOKEN');
    expect(sealed.has(user.id)).toBe(false);
    expect(published).toEqual(['meeting_provider_token.changed {"user_id":7,"realm_id":3,"has_token":false}']);
  });

  it('keeps the refresh token when the provider does not rotate it', async () => {
    const refreshed: string[] = [];
    const { provider, store, sealed } = setup(
      {},
      {
        refresh: (token) => {
          refreshed.push(token);
          return Promise.resolve({ accessToken: 'a2', refreshToken: null, expiresAt: Date.now() + 3_600_000 });
        },
      },
    );
    store({ accessToken: 'a1', refreshToken: 'r1', expiresAt: Date.now() + 1000 });
    await provider.createMeeting(user);
    const opened = new TokenSealer('unit-test-token-key-0123456789').open(
      sealed.get(user.id)!.sealed,
      '7:oauth:provider.test',
    );
    expect(refreshed).toEqual(['r1']);
    expect(opened).toMatchObject({ accessToken: 'a2', refreshToken: 'r1' });
  });

  it('ignores a token sealed under another key (the key was changed): the user must authorize again', async () => {
    const { provider, store } = setup();
    store({ accessToken: 'a', refreshToken: 'r', expiresAt: null }, new TokenSealer('an-older-token-key-abcdefghij'));
    expect(await provider.hasToken(user)).toBe(false);
    await expectMessage(provider.createMeeting(user), 'Invalid Zoom access token', 'INVALID_VIDEO_CALL_PROVIDER_TOKEN');
  });
});
