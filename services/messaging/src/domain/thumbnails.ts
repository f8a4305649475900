import { invalid } from '@confab/errors';

const SIZES = ['thumbnail', 'full'];

/**
 * Where `/thumbnail` sends a client: an upload (`user_uploads/<realm id>/…`, Zulip's only accepted form) to its own
 * path, still authenticated there. Null for anything else: Zulip 9+ refuses other URLs (it used to pass them
 * through its image proxy), and redirecting to them would make this server an open redirect.
 */
export function thumbnailTarget(url: string | null, size: string | null): string | null {
  if (url === null) throw invalid("Missing 'url' argument");
  if (size !== null && !SIZES.includes(size)) throw invalid('Invalid size.');
  return /^user_uploads\/\d+\/[^?#]+$/.test(url) ? `/${url}` : null;
}
