import jwt from 'jsonwebtoken';
import { IdentitySigner, IdentityVerifier, signIdentity, type UserIdentity } from '@confab/identity';

const SECRET = 'a-test-secret-of-enough-length';
const hamlet: UserIdentity = {
  kind: 'user',
  userId: 10,
  realmId: 2,
  role: 400,
  email: 'hamlet@zulip.com',
  isBot: false,
};

describe('identity tokens', () => {
  it('round-trips users, anonymous callers and services', () => {
    const verifier = new IdentityVerifier(SECRET);
    expect(verifier.verify(signIdentity(hamlet, SECRET))).toEqual(hamlet);
    expect(verifier.verify(signIdentity({ kind: 'anonymous' }, SECRET))).toEqual({ kind: 'anonymous' });
    expect(verifier.verify(signIdentity({ kind: 'service', service: 'gateway' }, SECRET))).toEqual({
      kind: 'service',
      service: 'gateway',
    });
  });

  it('accepts tokens of the previous secret during a rotation, and no others', () => {
    const next = 'the-next-secret-of-enough-length';
    const verifier = new IdentityVerifier([next, SECRET]);
    expect(verifier.verify(signIdentity(hamlet, next))).toEqual(hamlet);
    expect(verifier.verify(signIdentity(hamlet, SECRET))).toEqual(hamlet);
    expect(verifier.verify(signIdentity(hamlet, 'a-third-secret-of-enough-length'))).toBeNull();
    expect(new IdentityVerifier([next, undefined]).verify(signIdentity(hamlet, SECRET))).toBeNull();
    expect(() => new IdentityVerifier([undefined, ''])).toThrow(/needs a secret/);
  });

  it('refuses a wrong key, alg none, an expired token, a foreign audience and garbage', () => {
    const verifier = new IdentityVerifier(SECRET);
    expect(verifier.verify(signIdentity(hamlet, 'another-secret-of-enough-length'))).toBeNull();
    const none = jwt.sign({ typ: 'user', sub: '1', realm_id: 1, role: 100, email: 'x', is_bot: false }, '', {
      algorithm: 'none',
      issuer: 'confab',
      audience: 'confab-internal',
    });
    expect(verifier.verify(none)).toBeNull();
    expect(
      verifier.verify(
        jwt.sign({ typ: 'anon' }, SECRET, {
          algorithm: 'HS256',
          issuer: 'confab',
          audience: 'confab-internal',
          expiresIn: -1,
        }),
      ),
    ).toBeNull();
    expect(
      verifier.verify(
        jwt.sign({ typ: 'anon' }, SECRET, { algorithm: 'HS256', issuer: 'confab', audience: 'elsewhere' }),
      ),
    ).toBeNull();
    expect(
      verifier.verify(
        jwt.sign({ typ: 'user', sub: 'x' }, SECRET, {
          algorithm: 'HS256',
          issuer: 'confab',
          audience: 'confab-internal',
        }),
      ),
    ).toBeNull();
    expect(verifier.verify('not.a.token')).toBeNull();
    expect(verifier.verify(undefined)).toBeNull();
  });

  it('reuses a token for the same identity and signs anew when the identity changes', () => {
    const signer = new IdentitySigner(SECRET);
    const first = signer.sign(hamlet);
    expect(signer.sign({ ...hamlet })).toBe(first);
    expect(signer.sign({ ...hamlet, role: 200 })).not.toBe(first);
  });
});
