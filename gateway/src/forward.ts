import { Agent, request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';

/**
 * Streams one request to a service and its answer back; a failure to reach it or to hear back goes to `onError`.
 * `body`: the request's body, already read (a webhook's form body the gateway read for its api_key).
 */
export type Forwarder = (req: IncomingMessage, res: ServerResponse, body?: Buffer) => void;

export interface ForwarderOptions {
  /** The service's base URL (http://host:port). */
  target: string;
  /** Connections kept to the service (all may stay open between requests). */
  maxSockets: number;
  /** No answer within this many milliseconds ends the request (a 502). */
  timeoutMs: number;
  onError(res: ServerResponse, err: NodeJS.ErrnoException): void;
}

/** Connection-level headers: they describe one hop, and node manages each side's connection itself. */
const REQUEST_HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection'];
/** Answers up to this size are read whole and written in one piece; larger ones are streamed. */
const BUFFERED_ANSWER_BYTES = 256 * 1024;
const ANSWER_HOP_BY_HOP = new Set([...REQUEST_HOP_BY_HOP, 'transfer-encoding']);

function appendForwarded(headers: IncomingHttpHeaders, name: string, value: string): void {
  const existing = headers[name];
  headers[name] = existing ? `${String(existing)},${value}` : value;
}

/**
 * A service's forwarder: a plain node:http request over a keep-alive agent of its own, the client's body piped in
 * and the service's answer piped back, with X-Forwarded-For/-Port/-Proto/-Host added. Nothing is set up per request
 * beyond the upstream request itself (the gateway's hot path, docs/architecture.md "The gateway"). The client going
 * away ends the upstream request, so a long poll's wait ends with it.
 */
export function createForwarder(options: ForwarderOptions): Forwarder {
  const url = new URL(options.target);
  const host = url.hostname;
  const port = Number(url.port || 80);
  const base = url.pathname.replace(/\/$/, '');
  // Idle sockets are dropped after 30 s, before the services' 65 s keep-alive timeout closes them under us.
  const agent = new Agent({
    keepAlive: true,
    maxSockets: options.maxSockets,
    maxFreeSockets: options.maxSockets,
    timeout: 30_000,
  });
  return (req, res, body) => {
    const headers = req.headers;
    if (body !== undefined) {
      headers['content-length'] = String(body.length);
      delete headers['transfer-encoding'];
    }
    for (const name of REQUEST_HOP_BY_HOP) if (name in headers) delete headers[name];
    const method = req.method ?? 'GET';
    // A DELETE or OPTIONS without a body says so, or some servers wait for one.
    if ((method === 'DELETE' || method === 'OPTIONS') && headers['content-length'] === undefined) {
      headers['content-length'] = '0';
      delete headers['transfer-encoding'];
    }
    const encrypted = (req.socket as TLSSocket).encrypted === true;
    appendForwarded(headers, 'x-forwarded-for', req.socket.remoteAddress ?? '');
    const hostHeader = headers.host;
    const hostPort = hostHeader?.match(/:(\d+)$/)?.[1];
    appendForwarded(headers, 'x-forwarded-port', hostPort ?? (encrypted ? '443' : '80'));
    appendForwarded(headers, 'x-forwarded-proto', encrypted ? 'https' : 'http');
    if (headers['x-forwarded-host'] === undefined) headers['x-forwarded-host'] = hostHeader ?? '';

    const upstream = request({ agent, host, port, method, path: base + (req.url ?? '/'), headers });
    let failed = false;
    const fail = (err: NodeJS.ErrnoException) => {
      if (failed || res.destroyed) return;
      failed = true;
      upstream.destroy();
      options.onError(res, err);
    };
    upstream.setTimeout(options.timeoutMs, () =>
      fail(Object.assign(new Error('the service did not answer in time'), { code: 'ETIMEDOUT' })),
    );
    upstream.on('error', fail);
    upstream.on('response', (answer) => {
      res.statusCode = answer.statusCode ?? 502;
      if (answer.statusMessage) res.statusMessage = answer.statusMessage;
      const answerHeaders = answer.headers;
      for (const name in answerHeaders) {
        if (!ANSWER_HOP_BY_HOP.has(name)) res.setHeader(name, answerHeaders[name]!);
      }
      answer.on('error', fail);
      const length = Number(answerHeaders['content-length']);
      if (!(length <= BUFFERED_ANSWER_BYTES)) {
        answer.pipe(res);
        return;
      }
      // A small answer of known size (most API answers, every long poll's) goes out in one write, without a pipe.
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => res.end(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    });
    // The client went away before its answer was written: the service's request ends too (a long poll stops waiting).
    res.on('close', () => {
      if (!res.writableFinished) {
        failed = true;
        upstream.destroy();
      }
    });
    if (body !== undefined) {
      upstream.end(body);
      return;
    }
    // A request without a body (most GETs, every long poll) ends at once, without a pipe.
    if (headers['content-length'] === undefined || headers['content-length'] === '0') {
      if (headers['transfer-encoding'] === undefined) {
        req.resume();
        upstream.end();
        return;
      }
    }
    req.pipe(upstream);
  };
}
