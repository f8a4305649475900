import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { GuardedHttpClient, OutgoingRequestError } from '@confab/http';
import type { FailedFetch } from './model.js';

/**
 * Images an export only names by URL (Slack's avatars and custom emoji), fetched at import time through the
 * guarded client (docs/security.md, "Requests to URLs users choose"): the URLs come from the export, which anyone
 * can write, so an address that is not public is refused as for every other request the server makes. A failure is
 * reported, never fatal: the user keeps the default avatar, the emoji is not created.
 */

/** Where fetched images are written below the import's working directory (the model names them relative to it). */
export function fetchedDir(workDir: string): string {
  return join(workDir, 'fetched');
}

export interface FetchLimits {
  /** Longest one fetch may take, redirects and body included, in ms (default 30,000). */
  timeoutMs: number;
  /** Longest a connection may take to open, in ms (default 10,000). */
  connectTimeoutMs: number;
  /** Largest image kept, in bytes (default 5 MiB: Zulip's MAX_AVATAR_FILE_SIZE_MIB and MAX_EMOJI_FILE_SIZE_MIB). */
  maxBytes: number;
  /** Fetches at once (default 6: Zulip's importer's threads). */
  concurrency: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = {
  timeoutMs: 30_000,
  connectTimeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
  concurrency: 6,
};

/** An image's kind by its first bytes (the ones the avatar and emoji code accept), or null. */
export function imageExtension(data: Buffer): string | null {
  if (data.length >= 8 && data.readUInt32BE(0) === 0x89504e47 && data.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  if (data.length >= 6 && /^GIF8[79]a$/.test(data.toString('latin1', 0, 6))) return 'gif';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpg';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  return null;
}

/** One image to fetch: what it is for (the summary's words), its URL, and its name below the fetched directory. */
export interface ImageRequest {
  what: string;
  url: string;
  /** Without extension: the image's kind adds it. */
  name: string;
}

function reasonOf(err: unknown): string {
  if (err instanceof OutgoingRequestError) {
    if (err.kind === 'refused') return `refused: ${err.message}`;
    if (err.kind === 'timeout') return `timed out (${err.message})`;
    return `${err.kind.replace(/-/g, ' ')}: ${err.message}`;
  }
  return err instanceof Error ? err.message : String(err);
}

export class RemoteImages {
  readonly failures: FailedFetch[] = [];

  constructor(
    private readonly client: GuardedHttpClient,
    private readonly workDir: string,
    private readonly limits: FetchLimits = DEFAULT_FETCH_LIMITS,
  ) {}

  /**
   * Fetches every request (a few at a time); answers each one's file (relative to the fetched directory) or null,
   * and adds the failures to `failures` in the requests' order.
   */
  async fetchAll(requests: ImageRequest[]): Promise<(string | null)[]> {
    const out: (string | FailedFetch)[] = [];
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const i = next++;
        out[i] = await this.fetchOne(requests[i]!);
      }
    };
    await Promise.all(Array.from({ length: Math.min(this.limits.concurrency, requests.length) }, worker));
    for (const result of out) if (typeof result !== 'string') this.failures.push(result);
    return out.map((result) => (typeof result === 'string' ? result : null));
  }

  private async fetchOne(request: ImageRequest): Promise<string | FailedFetch> {
    const fail = (reason: string): FailedFetch => ({ what: request.what, url: request.url, reason });
    let answer;
    try {
      answer = await this.client.fetch(request.url, {
        timeoutMs: this.limits.timeoutMs,
        connectTimeoutMs: this.limits.connectTimeoutMs,
        // One more byte than allowed tells a file of exactly the limit from a larger one.
        maxBytes: this.limits.maxBytes + 1,
        maxRedirects: 3,
        headers: { accept: 'image/*' },
      });
    } catch (err) {
      return fail(reasonOf(err));
    }
    if (answer.status !== 200) return fail(`HTTP ${answer.status}`);
    if (answer.truncated || answer.body.length > this.limits.maxBytes)
      return fail(`too large: more than ${this.limits.maxBytes} bytes`);
    const extension = imageExtension(answer.body);
    if (!extension) return fail('not an image (PNG, GIF, JPEG or WebP)');
    const file = `${request.name}.${extension}`;
    const path = join(fetchedDir(this.workDir), file);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, answer.body);
    return file;
  }
}
