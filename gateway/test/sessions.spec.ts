import type { IncomingMessage } from 'node:http';
import { ConfabError } from '@confab/errors';
import { checkCsrf, endedByRecentEvents, endingEventIds, isSecure, parseCookies, type Session } from '../src/sessions';

const session: Session = { userId: 1, email: 'a@b.c', apiKey: 'k', csrf: 'token', seen: ['e1'] };

function req(method: string, headers: Record<string, string>, encrypted = false): IncomingMessage {
  return { method, headers, socket: { encrypted } } as unknown as IncomingMessage;
}

function refusal(run: () => void): string {
  try {
    run();
  } catch (err) {
    if (err instanceof ConfabError) return `${err.status} ${err.code} ${err.message}`;
  }
  return 'allowed';
}

describe('session cookies and CSRF', () => {
  it('reads cookies, first occurrence winning', () => {
    const cookies = parseCookies('a=1; confab_session=xyz; a=2;broken; b=');
    expect([...cookies]).toEqual([
      ['a', '1'],
      ['confab_session', 'xyz'],
      ['b', ''],
    ]);
    expect(parseCookies(undefined).size).toBe(0);
  });

  it('lets safe methods through and asks the token of the others', () => {
    expect(refusal(() => checkCsrf(req('GET', {}), session))).toBe('allowed');
    expect(refusal(() => checkCsrf(req('POST', {}), session))).toBe('403 CSRF_FAILED CSRF error: CSRF token missing.');
    expect(refusal(() => checkCsrf(req('DELETE', { 'x-csrftoken': 'tokeN' }), session))).toBe(
      '403 CSRF_FAILED CSRF error: CSRF token incorrect.',
    );
    expect(refusal(() => checkCsrf(req('PATCH', { 'x-csrftoken': 'token', host: 'h' }), session))).toBe('allowed');
  });

  it('refuses another origin, and compares the scheme too', () => {
    const headers = { 'x-csrftoken': 'token', host: 'chat.example' };
    expect(refusal(() => checkCsrf(req('POST', { ...headers, origin: 'http://chat.example' }), session))).toBe(
      'allowed',
    );
    expect(refusal(() => checkCsrf(req('POST', { ...headers, origin: 'https://chat.example' }), session))).toMatch(
      /Origin checking failed - https:\/\/chat.example does not match/,
    );
    const viaTls = req('POST', { ...headers, origin: 'https://chat.example', 'x-forwarded-proto': 'https' });
    expect(isSecure(viaTls)).toBe(true);
    expect(refusal(() => checkCsrf(viaTls, session))).toBe('allowed');
  });

  it('ends a session on a password change, deactivation or key change it has not seen', () => {
    const events = [
      { type: 'user.updated', id: 'e0' },
      { type: 'user.password_changed', id: 'e1' },
    ];
    expect(endedByRecentEvents(session, events)).toBe(false);
    expect(endedByRecentEvents(session, [...events, { type: 'user.deactivated', id: 'e2' }])).toBe(true);
    expect(endedByRecentEvents(session, undefined)).toBe(false);
    // An administrator's log holds the deactivation of someone else: it ends that person's sessions, not theirs.
    expect(endedByRecentEvents(session, [{ type: 'user.deactivated', id: 'e3', subject: 2 }])).toBe(false);
    expect(endedByRecentEvents(session, [{ type: 'user.deactivated', id: 'e4', subject: 1 }])).toBe(true);
    expect(endingEventIds(events)).toEqual(['e1']);
  });
});
