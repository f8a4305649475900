import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { TokenSet } from '../ports.js';

const VERSION = 'v1';

/**
 * Seals provider tokens for storage with AES-256-GCM under a key derived from the server's secret. The user id and
 * provider are authenticated with it, so a sealed token copied to another row does not open.
 */
export class TokenSealer {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = Buffer.from(hkdfSync('sha256', secret, 'confab', 'meeting-provider-tokens', 32));
  }

  seal(token: TokenSet, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context));
    const body = Buffer.concat([cipher.update(JSON.stringify(token), 'utf8'), cipher.final()]);
    return [
      VERSION,
      iv.toString('base64url'),
      cipher.getAuthTag().toString('base64url'),
      body.toString('base64url'),
    ].join('.');
  }

  /** The token, or null when it was sealed under another key or for another context, or is damaged. */
  open(sealed: string, context: string): TokenSet | null {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || body === undefined) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
      const token = JSON.parse(plain) as TokenSet;
      return typeof token.accessToken === 'string' ? token : null;
    } catch {
      return null;
    }
  }
}
