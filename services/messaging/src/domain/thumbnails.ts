import { invalid } from '@confab/errors';

const SIZES = ['thumbnail', 'full'];

/**
 * Where `/thumbnail` sends a client: the image itself for web URLs, the upload's own path (still authenticated) for
 * uploads. Anything else (other schemes, other paths on this server) is refused rather than redirected to.
 */
export function thumbnailTarget(url: string | null, size: string | null): string {
  if (url === null) throw invalid("Missing 'url' argument");
  if (size !== null && !SIZES.includes(size)) throw invalid('Invalid size.');
  const upload = /^\/?user_uploads\/[^?#]+$/.exec(url);
  if (upload) return `/${url.replace(/^\//, '')}`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('Invalid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid('Invalid URL');
  return parsed.href;
}
