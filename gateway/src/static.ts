import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

// The page loads nothing from other hosts; server-rendered message HTML may show inline images from this host.
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'same-origin',
};

interface StaticFile {
  body: Buffer;
  type: string;
  immutable: boolean;
  /** Compressed once at start (text files worth it): Brotli and gzip. */
  br?: Buffer;
  gzip?: Buffer;
}

const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.ico']);

function compressed(body: Buffer, ext: string): Pick<StaticFile, 'br' | 'gzip'> {
  if (!COMPRESSIBLE.has(ext) || body.length < 512) return {};
  return {
    br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
    gzip: gzipSync(body, { level: 9 }),
  };
}

/** The encoding to answer with, from the request's Accept-Encoding (Brotli first, then gzip). */
function encodingFor(req: IncomingMessage, file: StaticFile): 'br' | 'gzip' | null {
  const accepted = String(req.headers['accept-encoding'] ?? '')
    .split(',')
    .map((part) => part.trim().split(';'))
    .filter(([, q]) => !q || !/^q=0(\.0*)?$/.test(q.trim()))
    .map(([name]) => (name ?? '').trim().toLowerCase());
  if (file.br && accepted.includes('br')) return 'br';
  if (file.gzip && accepted.includes('gzip')) return 'gzip';
  return null;
}

function filesUnder(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = join(at, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        const path = `/${relative(dir, full).split(sep).join('/')}`;
        const ext = name.slice(name.lastIndexOf('.'));
        const body = readFileSync(full);
        files.set(path, {
          body,
          type: TYPES[ext] ?? 'application/octet-stream',
          immutable: path.startsWith('/assets/'),
          ...compressed(body, ext),
        });
      }
    }
  };
  walk(dir);
  return files;
}

/**
 * The web client (web/, built by `node scripts/confab.mjs build`) as static files at `/`, read into memory once. An
 * absent build leaves the gateway as it was (paths 404). Vite's hashed /assets/* are cached for good; the page is not.
 */
export function staticSite(dir: string | undefined) {
  const files = dir && existsSync(join(dir, 'index.html')) ? filesUnder(dir) : new Map<string, StaticFile>();
  return function serve(req: IncomingMessage, res: ServerResponse, path: string): boolean {
    if (files.size === 0 || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    const file = files.get(path === '/' ? '/index.html' : path);
    if (!file) return false;
    const encoding = encodingFor(req, file);
    const body = encoding ? file[encoding]! : file.body;
    res.writeHead(200, {
      ...PAGE_HEADERS,
      'Content-Type': file.type,
      'Content-Length': String(body.length),
      'Cache-Control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      ...(file.br || file.gzip ? { Vary: 'Accept-Encoding' } : {}),
      ...(encoding ? { 'Content-Encoding': encoding } : {}),
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
}
