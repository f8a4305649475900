import { ConfabError } from '@confab/errors';
import { validateAppId, validateToken } from '../src/domain/tokens';

function message(fn: () => void): string | undefined {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfabError) return `${err.status} ${err.code} ${err.message}`;
    throw err;
  }
  return undefined;
}

describe('validateToken', () => {
  it("accepts 1 to 4096 characters and refuses the rest with Zulip's text", () => {
    expect(message(() => validateToken('fcm', 'x'))).toBeUndefined();
    expect(message(() => validateToken('fcm', 'x'.repeat(4096)))).toBeUndefined();
    expect(message(() => validateToken('fcm', ''))).toBe('400 BAD_REQUEST Empty or invalid length token');
    expect(message(() => validateToken('fcm', 'x'.repeat(4097)))).toBe('400 BAD_REQUEST Empty or invalid length token');
    expect(message(() => validateToken('apns', 'ab'.repeat(2049)))).toBe(
      '400 BAD_REQUEST Empty or invalid length token',
    );
  });

  it('wants APNs tokens to be hex as Python bytes.fromhex reads it (whitespace between bytes allowed)', () => {
    for (const ok of ['00ff', 'DEADbeef', 'de ad be ef', ' 0a '])
      expect(message(() => validateToken('apns', ok))).toBeUndefined();
    for (const bad of ['abc', 'zz', 'd e', '0x00', 'aa-bb']) {
      expect(message(() => validateToken('apns', bad))).toBe('400 BAD_REQUEST Invalid APNS token');
    }
    expect(message(() => validateToken('fcm', 'not hex at all'))).toBeUndefined();
  });
});

describe('validateAppId', () => {
  it('accepts bundle identifiers only', () => {
    expect(message(() => validateAppId('org.zulip.Zulip'))).toBeUndefined();
    expect(message(() => validateAppId('com.example-app.x1'))).toBeUndefined();
    for (const bad of ['', 'org zulip', 'org/zulip', 'org.zulip.Zulip\n']) {
      expect(message(() => validateAppId(bad))).toBe('400 BAD_REQUEST Invalid app ID');
    }
  });
});
