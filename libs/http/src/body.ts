import type { IncomingMessage } from 'node:http';
import busboy from 'busboy';
import { ConfabError } from '@confab/errors';

/** An uploaded file from a multipart request, held in memory (bounded by `maxFileBytes`). */
export interface UploadedFile {
  field: string;
  filename: string;
  mimeType: string;
  data: Buffer;
}

export interface ParsedBody {
  fields: Map<string, string>;
  files: UploadedFile[];
  /** The decoded JSON document, for routes that take JSON bodies (internal endpoints). */
  json?: unknown;
  /** The body as it came, for routes that read it themselves (incoming webhooks); not for multipart bodies. */
  raw?: Buffer;
}

export interface BodyLimits {
  /** Largest non-file body, in bytes. Default 5 MiB. */
  maxFieldBytes: number;
  /** Largest uploaded file, in bytes. Default 25 MiB. */
  maxFileBytes: number;
}

export const DEFAULT_BODY_LIMITS: BodyLimits = { maxFieldBytes: 5 * 1024 * 1024, maxFileBytes: 25 * 1024 * 1024 };

const EMPTY: ParsedBody = { fields: new Map(), files: [] };

/** Parses a query string or form body; when a key repeats the last value wins, as Django's QueryDict does. */
export function parseUrlEncoded(text: string): Map<string, string> {
  const out = new Map<string, string>();
  if (text.length === 0) return out;
  for (const [key, value] of new URLSearchParams(text)) out.set(key, value);
  return out;
}

/** A request's whole body, refused with 413 "Request body too large" past `limit` bytes (the rest is drained). */
export function readAll(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(new ConfabError('Request body too large', { status: 413 }));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (err) => {
      if (!failed) reject(err);
    });
  });
}

function parseMultipart(req: IncomingMessage, limits: BodyLimits): Promise<ParsedBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fieldSize: limits.maxFieldBytes, fileSize: limits.maxFileBytes, files: 20, fields: 1000 },
        defParamCharset: 'utf8',
      });
    } catch {
      reject(new ConfabError('Malformed payload'));
      return;
    }
    const fields = new Map<string, string>();
    const files: UploadedFile[] = [];
    let failure: ConfabError | undefined;
    parser.on('field', (name, value) => {
      fields.set(name, value);
    });
    parser.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        failure = new ConfabError(`Uploaded file is larger than the allowed limit of ${limits.maxFileBytes} bytes`, {
          status: 413,
        });
      });
      stream.on('end', () => {
        files.push({
          field,
          filename: info.filename ?? field,
          mimeType: info.mimeType || 'application/octet-stream',
          data: Buffer.concat(chunks),
        });
      });
    });
    parser.on('error', () => reject(new ConfabError('Malformed payload')));
    parser.on('close', () => (failure ? reject(failure) : resolve({ fields, files })));
    req.pipe(parser);
  });
}

/**
 * Reads the request body the way Zulip does for every method (PATCH and DELETE bodies are parsed like POST):
 * form-urlencoded and multipart/form-data; JSON only when the route asks for it.
 */
export async function readBody(
  req: IncomingMessage,
  options: { acceptJson: boolean; limits?: BodyLimits; raw?: boolean },
): Promise<ParsedBody> {
  const limits = options.limits ?? DEFAULT_BODY_LIMITS;
  const contentType = (req.headers['content-type'] ?? '').toLowerCase();
  if (contentType.startsWith('multipart/form-data')) return parseMultipart(req, limits);
  const hasBody = req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0';
  if (!hasBody && req.headers['transfer-encoding'] === undefined)
    return options.raw ? { ...EMPTY, raw: Buffer.alloc(0) } : EMPTY;
  return parseBodyBytes(contentType, await readAll(req, limits.maxFieldBytes), options.acceptJson, options.raw);
}

/**
 * A whole non-multipart body, parsed as `readBody` parses it (`contentType` lower-cased). With `keepRaw` the bytes
 * come along, and a JSON body is not parsed (the route reads it, and words its own error).
 */
export function parseBodyBytes(contentType: string, raw: Buffer, acceptJson: boolean, keepRaw = false): ParsedBody {
  if (keepRaw) {
    const form =
      contentType === '' || contentType.startsWith('application/x-www-form-urlencoded')
        ? parseUrlEncoded(raw.toString('utf8'))
        : new Map<string, string>();
    return { fields: form, files: [], raw };
  }
  // SCIM clients (Okta, Entra ID) send JSON as application/scim+json (RFC 7644 §8.1).
  if (contentType.startsWith('application/json') || contentType.startsWith('application/scim+json')) {
    if (!acceptJson) return EMPTY;
    try {
      return { fields: new Map(), files: [], json: raw.length ? JSON.parse(raw.toString('utf8')) : undefined };
    } catch {
      throw new ConfabError('Malformed JSON');
    }
  }
  if (
    contentType === '' ||
    contentType.startsWith('application/x-www-form-urlencoded') ||
    contentType.startsWith('text/plain')
  ) {
    return { fields: parseUrlEncoded(raw.toString('utf8')), files: [] };
  }
  return EMPTY;
}
