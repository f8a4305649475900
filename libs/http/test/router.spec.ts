import { route, Router } from '@confab/http';

const handler = () => ({});
const router = new Router().add('/api/v1', [
  route({ method: 'GET', path: '/users/{user_id:int}', auth: 'user', handler }),
  route({ method: 'GET', path: '/users/{email:str}', auth: 'user', handler }),
  route({ method: 'GET', path: '/users/me', auth: 'user', handler }),
  route({ method: 'PATCH', path: '/navigation_views/{fragment:path}', auth: 'user', handler }),
  route({ method: 'DELETE', path: '/navigation_views/{fragment:path}', auth: 'user', handler }),
  route({ method: 'PATCH', path: '/drafts/{draft_id:int}', auth: 'user', handler }),
  route({ method: 'DELETE', path: '/drafts/{draft_id:int}', auth: 'user', handler }),
]);

describe('Router', () => {
  it('prefers literal segments over parameters', () => {
    const me = router.match('GET', '/api/v1/users/me');
    expect(me.kind === 'found' && me.route.path).toBe('/users/me');
    const byId = router.match('GET', '/api/v1/users/12');
    expect(byId.kind === 'found' && byId.path).toEqual({ user_id: 12 });
    const byEmail = router.match('GET', '/api/v1/users/iago%40zulip.com');
    expect(byEmail.kind === 'found' && byEmail.path).toEqual({ email: 'iago@zulip.com' });
  });

  it('lets path parameters contain slashes', () => {
    const m = router.match('PATCH', '/api/v1/navigation_views/narrow/is/starred');
    expect(m.kind === 'found' && m.path).toEqual({ fragment: 'narrow/is/starred' });
  });

  it('answers 405 with the allowed methods for a known path', () => {
    expect(router.match('POST', '/api/v1/drafts/3')).toEqual({
      kind: 'method_not_allowed',
      allowed: ['PATCH', 'DELETE'],
    });
  });

  it('does not match non-numeric ids and maps impossible ids to 0', () => {
    expect(router.match('PATCH', '/api/v1/drafts/abc').kind).toBe('not_found');
    const huge = router.match('PATCH', '/api/v1/drafts/99999999999999999999');
    expect(huge.kind === 'found' && huge.path).toEqual({ draft_id: 0 });
  });
});
