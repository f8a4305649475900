import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** 32 random alphanumeric characters, like Zulip's API keys (190 bits). */
export function generateApiKey(): string {
  let key = '';
  while (key.length < 32) {
    for (const byte of randomBytes(48)) {
      // 248 = 4 × 62: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && key.length < 32) key += ALPHABET[byte % 62];
    }
  }
  return key;
}

export function isWellFormedApiKey(key: string): boolean {
  return /^[A-Za-z0-9]{32}$/.test(key);
}

/** API keys are long and random, so a plain SHA-256 is enough to store them (no stretching needed). */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function scryptAsync(password: string, salt: Buffer, cost: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, 32, { N: 2 ** cost, r: 8, p: 1, maxmem: 256 * 2 ** cost * 8 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** scrypt with a random salt; the cost is stored with the hash so it can be raised later. */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, cost);
  return `scrypt$${cost}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  if (!stored) return false;
  const [scheme, costText, saltText, hashText] = stored.split('$');
  if (scheme !== 'scrypt' || !costText || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, 'base64');
  const actual = await scryptAsync(password, Buffer.from(saltText, 'base64'), Number(costText));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
