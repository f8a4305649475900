import type { Role } from '@confab/identity';
import {
  canManage,
  checkInviteAs,
  expiryFrom,
  generateKey,
  inviteDict,
  inviteLink,
  isWellFormedKey,
  linkState,
  requireMemberOrAdmin,
  welcomeMessage,
  welcomeTextFor,
} from '../src/domain/rules';
import type { Caller, Invite } from '../src/domain/types';

const caller = (role: Role, extra: Partial<Caller> = {}): Caller => ({
  userId: 7,
  realmId: 1,
  role,
  isBot: false,
  ...extra,
});
const invite = (extra: Partial<Invite> = {}): Invite => ({
  id: 3,
  key: 'abcdefghijklmnopqrstuvwx',
  realmId: 1,
  realmUrl: 'http://zulip.localhost:9991/',
  referrerId: 7,
  inviteAs: 400,
  streamIds: [],
  groupIds: [],
  includeRealmDefaultSubscriptions: false,
  welcomeMessageCustomText: null,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  expiresAt: null,
  revokedAt: null,
  email: null,
  notifyReferrerOnJoin: true,
  usedAt: null,
  ...extra,
});

describe('invitation rules', () => {
  it('refuses guests and bots', () => {
    expect(() => requireMemberOrAdmin(caller(600))).toThrow('Not allowed for guest users');
    expect(() => requireMemberOrAdmin(caller(400, { isBot: true }))).toThrow(
      'This endpoint does not accept bot requests.',
    );
    expect(() => requireMemberOrAdmin(caller(400))).not.toThrow();
  });

  it('invites at the caller’s role or a more restricted one only', () => {
    const roles: Role[] = [100, 200, 300, 400, 600];
    for (const mine of roles) {
      for (const theirs of roles) {
        const check = () => checkInviteAs(caller(mine), theirs);
        if (theirs < mine) expect(check).toThrow('Insufficient permission');
        else expect(check).not.toThrow();
      }
    }
  });

  it('computes the expiry in minutes, null never expiring', () => {
    const now = new Date('2026-01-01T00:00:00Z');
    expect(expiryFrom(now, null)).toBeNull();
    expect(expiryFrom(now, 14400)!.toISOString()).toBe('2026-01-11T00:00:00.000Z');
  });

  it('tells active, expired and revoked links apart', () => {
    const now = new Date('2026-01-02T00:00:00Z');
    expect(linkState(invite(), now)).toBe('active');
    expect(linkState(invite({ expiresAt: new Date('2026-01-03T00:00:00Z') }), now)).toBe('active');
    expect(linkState(invite({ expiresAt: now }), now)).toBe('expired');
    expect(linkState(invite({ revokedAt: new Date('2026-01-01T12:00:00Z') }), now)).toBe('revoked');
  });

  it('keeps the welcome text of administrators only; null is the default text, empty none', () => {
    expect(welcomeTextFor(caller(200), 'Hi')).toBe('Hi');
    expect(welcomeTextFor(caller(100), '')).toBe('');
    expect(welcomeTextFor(caller(300), 'Hi')).toBeNull();
    expect(welcomeTextFor(caller(200), undefined)).toBeNull();
    expect(welcomeMessage(invite({ welcomeMessageCustomText: null }), 'Default')).toBe('Default');
    expect(welcomeMessage(invite({ welcomeMessageCustomText: 'Custom' }), 'Default')).toBe('Custom');
    expect(welcomeMessage(invite({ welcomeMessageCustomText: '' }), 'Default')).toBeNull();
  });

  it('makes 24-character keys and links under /join/', () => {
    const key = generateKey();
    expect(isWellFormedKey(key)).toBe(true);
    expect(generateKey()).not.toBe(key);
    expect(isWellFormedKey('ABCDEFGHIJKLMNOPQRSTUVWX')).toBe(false);
    expect(isWellFormedKey('short')).toBe(false);
    expect(inviteLink(invite())).toBe('http://zulip.localhost:9991/join/abcdefghijklmnopqrstuvwx/');
  });

  it('describes a link as Zulip does', () => {
    expect(inviteDict(invite({ expiresAt: new Date('2026-01-11T00:00:00Z') }))).toEqual({
      id: 3,
      invited_by_user_id: 7,
      invited: 1767225600,
      expiry_date: 1768089600,
      invited_as: 400,
      link_url: 'http://zulip.localhost:9991/join/abcdefghijklmnopqrstuvwx/',
      is_multiuse: true,
      notify_referrer_on_join: true,
    });
  });

  it('lets people manage their own links, administrators others’, owners owner links', () => {
    expect(canManage(caller(400), invite({ referrerId: 7 }))).toBe(true);
    expect(canManage(caller(400), invite({ referrerId: 8 }))).toBe(false);
    expect(canManage(caller(300), invite({ referrerId: 8 }))).toBe(false);
    expect(canManage(caller(200), invite({ referrerId: 8 }))).toBe(true);
    expect(canManage(caller(200), invite({ referrerId: 8, inviteAs: 100 }))).toBe(false);
    expect(canManage(caller(100), invite({ referrerId: 8, inviteAs: 100 }))).toBe(true);
  });
});
