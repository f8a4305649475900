import sodium from 'libsodium-wrappers';
import { isValidPublicKey, sealForDevice } from '../src/domain/sealing';

beforeAll(async () => {
  await sodium.ready;
});

describe('isValidPublicKey', () => {
  it('accepts exactly 32 bytes in standard padded base64', () => {
    const key = Buffer.from(sodium.crypto_box_keypair().publicKey).toString('base64');
    expect(isValidPublicKey(key)).toBe(true);
    expect(isValidPublicKey(key.replace(/=$/, ''))).toBe(false);
    expect(isValidPublicKey(Buffer.alloc(31).toString('base64'))).toBe(false);
    expect(isValidPublicKey(Buffer.alloc(33).toString('base64'))).toBe(false);
    expect(isValidPublicKey(Buffer.alloc(32, 0xfb).toString('base64url') + '=')).toBe(false);
    // Non-canonical trailing bits decode to the same bytes but are not what an encoder writes.
    expect(isValidPublicKey('A'.repeat(42) + 'B=')).toBe(false);
  });
});

describe('sealForDevice', () => {
  it('produces a sealed box only the device key pair opens', async () => {
    const device = sodium.crypto_box_keypair();
    const sealed = Buffer.from(
      await sealForDevice(Buffer.from(device.publicKey).toString('base64'), { type: 'test', n: 1 }),
      'base64',
    );
    // Ephemeral public key (32) + MAC (16) + message.
    expect(sealed.length).toBe(32 + 16 + JSON.stringify({ type: 'test', n: 1 }).length);
    const opened = sodium.crypto_box_seal_open(sealed, device.publicKey, device.privateKey);
    expect(JSON.parse(Buffer.from(opened).toString('utf8'))).toEqual({ type: 'test', n: 1 });
    const stranger = sodium.crypto_box_keypair();
    expect(() => sodium.crypto_box_seal_open(sealed, stranger.publicKey, stranger.privateKey)).toThrow();
  });

  it('seals the same payload differently every time (fresh ephemeral key)', async () => {
    const key = Buffer.from(sodium.crypto_box_keypair().publicKey).toString('base64');
    expect(await sealForDevice(key, { a: 1 })).not.toBe(await sealForDevice(key, { a: 1 }));
  });
});
