import { ConfabError } from '@confab/errors';
import { parseBasicAuth } from '../src/credentials';
import { rateLimitState } from '../src/auth';
import { resolveRoute } from '../src/routing';

function refusal(header: string | undefined): { status: number; code: string; msg: string } {
  try {
    parseBasicAuth(header);
  } catch (err) {
    if (err instanceof ConfabError) return { status: err.status, code: err.code, msg: err.message };
  }
  throw new Error('expected a refusal');
}

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

describe('parseBasicAuth', () => {
  it('splits at the first colon and strips whitespace', () => {
    expect(parseBasicAuth(basic(' iago@zulip.com : key:with:colons '))).toEqual({
      email: 'iago@zulip.com',
      apiKey: 'key:with:colons',
    });
    expect(parseBasicAuth(`basic ${Buffer.from('a@b.c:k').toString('base64')}`)).toEqual({
      email: 'a@b.c',
      apiKey: 'k',
    });
  });

  it("refuses with Zulip's statuses and texts", () => {
    expect(refusal(undefined)).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
      msg: 'Not logged in: API authentication or user session required',
    });
    expect(refusal('Bearer x')).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'This endpoint requires HTTP basic authentication.',
    });
    expect(refusal('Basic')).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
      msg: 'Invalid authorization header for basic auth',
    });
    expect(refusal('Basic !!!!')).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
      msg: 'Invalid authorization header for basic auth',
    });
    expect(refusal(basic('no colon here'))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
      msg: 'Invalid authorization header for basic auth',
    });
  });
});

describe('rateLimitState', () => {
  const now = Date.UTC(2026, 0, 1, 0, 0, 30); // 30 s into a window
  it('counts down the remaining budget and names the window end', () => {
    expect(rateLimitState(200, 1, now)).toEqual({ limit: 200, remaining: 199, reset: now / 1000 + 30, retryAfter: 0 });
  });
  it('asks to retry when the window ends once the budget is spent', () => {
    expect(rateLimitState(200, 200, now).retryAfter).toBe(0);
    const over = rateLimitState(200, 201, now);
    expect(over.remaining).toBe(0);
    expect(over.retryAfter).toBeCloseTo(30, 5);
  });
});

describe('resolveRoute', () => {
  it.each([
    ['/api/v1/server_settings', 'settings', true],
    ['/api/v1/fetch_api_key', 'settings', true],
    ['/api/v1/jwt/fetch_api_key', 'settings', true],
    ['/api/v1/dev_fetch_api_key', 'settings', true],
    ['/api/v1/users/me', 'settings', false],
    ['/api/v1/users/me/subscriptions', 'messaging', false],
    ['/api/v1/users/me/12/topics', 'messaging', false],
    ['/api/v1/users/7/subscriptions/12', 'messaging', false],
    ['/api/v1/users/7/presence', 'settings', false],
    ['/api/v1/users/9/subscriptions', 'settings', false],
    ['/api/v1/default_streams', 'messaging', false],
    ['/api/v1/users/me/apns_device_token', 'push', false],
    ['/api/v1/messages/12/reactions', 'messaging', false],
    ['/api/v1/user_groups/3/members', 'groups', false],
    ['/api/v1/invites/multiuse', 'invitations', false],
    ['/api/v1/mobile_push/e2ee/test_notification', 'push', false],
    ['/api/v1/register', 'events', false],
    ['/api/v1/navigation_views/narrow/is/starred', 'settings', false],
    ['/join/abc/', 'invitations', true],
  ])('%s → %s', (path, service, isPublic) => {
    expect(resolveRoute(path)).toEqual({ service, public: isPublic });
  });

  it('owns nothing else', () => {
    expect(resolveRoute('/api/v1/nonexistent')).toBeNull();
    expect(resolveRoute('/api/v1/messagesx')).toBeNull();
    expect(resolveRoute('/internal/authenticate')).toBeNull();
    expect(resolveRoute('/')).toBeNull();
  });
});
