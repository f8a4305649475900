import { TokenSealer } from '../src/domain/meetings/token-sealer';

const token = { accessToken: 'access-1', refreshToken: 'refresh-1', expiresAt: 1_900_000_000_000 };

describe('TokenSealer', () => {
  const sealer = new TokenSealer('a-server-secret-of-some-length');

  it('round-trips a token without storing it in clear', () => {
    const sealed = sealer.seal(token, '7:oauth:provider');
    expect(sealed).not.toContain('access-1');
    expect(sealed).not.toContain('refresh-1');
    expect(sealer.open(sealed, '7:oauth:provider')).toEqual(token);
  });

  it('uses a fresh nonce each time', () => {
    expect(sealer.seal(token, 'c')).not.toBe(sealer.seal(token, 'c'));
  });

  it('refuses another context, another key and damaged data', () => {
    const sealed = sealer.seal(token, '7:oauth:provider');
    expect(sealer.open(sealed, '8:oauth:provider')).toBeNull();
    expect(new TokenSealer('another-server-secret-entirely').open(sealed, '7:oauth:provider')).toBeNull();
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    expect(
      sealer.open([parts[0], parts[1], parts[2], body.toString('base64url')].join('.'), '7:oauth:provider'),
    ).toBeNull();
    expect(sealer.open('garbage', '7:oauth:provider')).toBeNull();
  });
});
