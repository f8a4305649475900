import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The external image proxy's URLs (Zulip's zerver/lib/camo.py, the format of camo): `/external_content/<digest>/<hex>`,
 * the digest an HMAC-SHA1 of the image's URL under the proxy key, the URL hex-encoded. Only URLs this server rendered
 * carry a valid digest, so the proxy cannot be used to fetch anything else (docs/security.md).
 */
export const EXTERNAL_CONTENT_PREFIX = '/external_content/';

export class ImageProxyUrls {
  constructor(private readonly key: string) {}

  private digest(url: string): string {
    return createHmac('sha1', this.key).update(url, 'utf8').digest('hex');
  }

  /** The proxy URL an `<img>` of `url` shows (relative to the organization, as Zulip's default CAMO_URI). */
  url(url: string): string {
    return `${EXTERNAL_CONTENT_PREFIX}${this.digest(url)}/${Buffer.from(url, 'utf8').toString('hex')}`;
  }

  /** The image URL a proxy path stands for, or null when it is malformed or its digest is not this server's. */
  target(digest: string, hex: string): string | null {
    if (!/^[0-9a-f]{40}$/.test(digest) || !/^(?:[0-9a-f]{2})+$/.test(hex)) return null;
    const url = Buffer.from(hex, 'hex').toString('utf8');
    const expected = Buffer.from(this.digest(url), 'hex');
    return timingSafeEqual(expected, Buffer.from(digest, 'hex')) ? url : null;
  }
}
