import { signUploadToken, verifyUploadToken } from '../src/domain/temporary-uploads';

describe('temporary upload tokens', () => {
  const now = Date.UTC(2026, 10, 25, 12, 0, 0);
  const expires = now / 1000 + 60;
  const token = signUploadToken('key', '2/ab/notes.txt', expires);

  it('name their upload until they expire', () => {
    expect(verifyUploadToken('key', token, now)).toBe('2/ab/notes.txt');
    expect(verifyUploadToken('key', token, (expires - 1) * 1000)).toBe('2/ab/notes.txt');
    expect(verifyUploadToken('key', token, (expires + 1) * 1000)).toBeNull();
  });

  it('are refused when forged, signed with another key, or malformed', () => {
    const [payload, mac] = token.split('.') as [string, string];
    const other = Buffer.from(JSON.stringify(['2/ab/secret.txt', expires])).toString('base64url');
    expect(verifyUploadToken('key', `${other}.${mac}`, now)).toBeNull();
    expect(verifyUploadToken('other key', token, now)).toBeNull();
    expect(verifyUploadToken('key', payload, now)).toBeNull();
    expect(verifyUploadToken('key', `${token}.x`, now)).toBeNull();
    expect(verifyUploadToken('key', `${Buffer.from('[').toString('base64url')}.${mac}`, now)).toBeNull();
  });
});
