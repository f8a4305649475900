import { jsonText, jsonTextParts, type JsonTextPart } from '@confab/zulip';
import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Response } from 'express';
import { isConfabError, isUnavailable } from '@confab/errors';
import type { Logger } from '@confab/logging';
import type { RawResponse } from './router.js';

// How services answer: Zulip's envelopes and errors, written on express's responses or on bare node ones with the
// headers express would give them (the routes' hot path answers without express: app.ts).

/** Writes a success envelope: `result`, `msg`, the data, and ignored parameters when there were any. */
export function sendSuccess(res: Response, data: Record<string, unknown>, ignored: string[] = []): void {
  const body: Record<string, unknown> = { result: 'success', msg: '', ...data };
  if (ignored.length > 0) body.ignored_parameters_unsupported = ignored;
  res.status(200).type('application/json').send(JSON.stringify(body));
}

/**
 * The one place errors become responses: a ConfabError gives Zulip's envelope, status and headers; anything
 * else is logged with an id and answered with an opaque 500 carrying that id. Works on a bare `ServerResponse` too
 * (the gateway answers most requests without express).
 */
export function sendError(res: ServerResponse, err: unknown, log: Logger): void {
  if (res.headersSent) {
    log.error({ err }, 'error after the response started');
    res.destroy();
    return;
  }
  if (isConfabError(err)) {
    for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
    writeJson(res, err.status, { result: 'error', msg: err.message, code: err.code, ...err.data });
    return;
  }
  if (isUnavailable(err)) {
    log.warn({ err }, 'a dependency is unreachable');
    res.setHeader('Retry-After', '1');
    writeJson(res, 503, {
      result: 'error',
      msg: 'Service temporarily unavailable, retry later',
      code: 'SERVICE_UNAVAILABLE',
    });
    return;
  }
  const errorId = randomUUID();
  log.error({ err, error_id: errorId }, 'unhandled error');
  writeJson(res, 500, { result: 'error', msg: 'Internal server error', error_id: errorId });
}

/** A JSON answer on a bare response, with the headers express would give it. */
export function writeJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

export function methodNotAllowed(res: Response, allowed: string[]): void {
  res.setHeader('Allow', allowed.join(', '));
  res
    .status(405)
    .type('application/json')
    .send(JSON.stringify({ result: 'error', msg: 'Method Not Allowed', allowed_methods: allowed }));
}

export function notFoundResponse(res: Response): void {
  res
    .status(404)
    .type('application/json')
    .send(JSON.stringify({ result: 'error', msg: 'Not Found', code: 'NOT_FOUND' }));
}

/**
 * A JSON success envelope's text: `result`, `msg`, the data, and ignored parameters when there were any. A field whose
 * value is already JSON text (`jsonText` of @confab/zulip) is written as it is.
 */
export function successText(data: Record<string, unknown>, ignored: string[]): string {
  return answerBytes(successAnswer(data, ignored)).toString('utf8');
}

/**
 * The header with which an internal answer says where its JSON-text fields are (`successAnswer`'s layout), so that
 * the calling service can pass them on without parsing them (ServiceClient).
 */
export const JSON_TEXT_HEADER = 'x-confab-json-text';

/** An answer's body as the parts to write one after the other, and its length in bytes. */
export interface AnswerText {
  parts: JsonTextPart[];
  bytes: number;
  /**
   * Where the JSON-text fields are: `<n>;<key>=<from>-<to>;…`, n being the length of the body before them (the
   * fields are written last), the ranges those of each value; offsets in bytes of the UTF-8 body.
   */
  layout?: string;
}

const byteLength = (part: JsonTextPart) => (typeof part === 'string' ? Buffer.byteLength(part) : part.byteLength);

/** successText's body as parts (a JSON-text field's own parts among them) and where its JSON-text fields are. */
export function successAnswer(data: Record<string, unknown>, ignored: string[]): AnswerText {
  const body: Record<string, unknown> = { result: 'success', msg: '', ...data };
  if (ignored.length > 0) body.ignored_parameters_unsupported = ignored;
  let written: [string, readonly JsonTextPart[]][] | undefined;
  for (const key in data) {
    const parts = jsonTextParts(data[key]);
    if (parts === undefined) continue;
    (written ??= []).push([key, parts]);
    delete body[key];
  }
  const rest = JSON.stringify(body);
  if (!written) return { parts: [rest], bytes: Buffer.byteLength(rest) };
  const head = rest.slice(0, -1);
  const parts: JsonTextPart[] = [head];
  let bytes = Buffer.byteLength(head);
  const layout = [String(bytes)];
  for (const [key, value] of written) {
    const name = `,${JSON.stringify(key)}:`;
    parts.push(name);
    bytes += Buffer.byteLength(name);
    const from = bytes;
    for (const part of value) {
      parts.push(part);
      bytes += byteLength(part);
    }
    layout.push(`${encodeURIComponent(key)}=${from}-${bytes}`);
  }
  parts.push('}');
  return { parts, bytes: bytes + 1, layout: layout.join(';') };
}

/** An answer's body as one buffer (its bytes parts copied once, its strings encoded). */
export function answerBytes(answer: AnswerText): Buffer {
  if (answer.parts.length === 1 && typeof answer.parts[0] === 'string') return Buffer.from(answer.parts[0]);
  return Buffer.concat(
    answer.parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)),
    answer.bytes,
  );
}

/**
 * Reads an answer written by successAnswer with its layout: the fields before the JSON-text ones parsed, those kept
 * as JSON text (slices of `body`, never decoded). Null when the layout does not fit the body (the caller then parses
 * the whole).
 */
export function readJsonTextAnswer(body: Buffer, layout: string): Record<string, unknown> | null {
  const [head, ...fields] = layout.split(';');
  const end = Number(head);
  if (!Number.isInteger(end) || end <= 0 || end > body.length) return null;
  const parts: [string, number, number][] = [];
  for (const field of fields) {
    const m = /^([^=]+)=(\d+)-(\d+)$/.exec(field);
    if (!m) return null;
    const [from, to] = [Number(m[2]), Number(m[3])];
    if (from < end || to > body.length || from > to) return null;
    parts.push([decodeURIComponent(m[1]!), from, to]);
  }
  let read: Record<string, unknown>;
  try {
    read = JSON.parse(`${body.toString('utf8', 0, end)}}`) as Record<string, unknown>;
  } catch {
    return null;
  }
  for (const [key, from, to] of parts) read[key] = jsonText(body.subarray(from, to));
  return read;
}

/** `type` with `charset=utf-8` as its charset, as express's `res.send` gives a text body. */
export function withUtf8(type: string): string {
  return /;\s*charset=/i.test(type) ? type.replace(/(;\s*charset=)[^;]*/i, '$1utf-8') : `${type}; charset=utf-8`;
}

/**
 * Writes a RawResponse on a bare response with the headers express's `res.send` would give it: a text body gets
 * `charset=utf-8` (and text/html when it names no type), a binary one application/octet-stream, both a length.
 */
export function writeRaw(res: ServerResponse, raw: RawResponse): void {
  for (const name in raw.headers) res.setHeader(name, raw.headers[name]!);
  const type = res.getHeader('Content-Type');
  if (typeof raw.body === 'string')
    res.setHeader('Content-Type', withUtf8(typeof type === 'string' ? type : 'text/html'));
  else if (type === undefined) res.setHeader('Content-Type', 'application/octet-stream');
  res.statusCode = raw.status;
  if (raw.status === 204 || raw.status === 304) {
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.end();
    return;
  }
  res.setHeader('Content-Length', typeof raw.body === 'string' ? Buffer.byteLength(raw.body) : raw.body.length);
  res.end(raw.body);
}
