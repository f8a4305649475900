import { lookup as dnsLookup } from 'node:dns/promises';
import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import ipaddr from 'ipaddr.js';

/**
 * The one HTTP client for every request the server makes to a URL a user chose (outgoing webhooks, link previews,
 * images fetched for clients): docs/security.md, "Requests to URLs users choose". It resolves the name once, refuses
 * every address that is not public unicast (unless the operator's allow-list names it), connects to exactly the
 * address it checked (no second lookup, so a name that re-binds between check and connect gains nothing), checks every
 * redirect it follows the same way, and bounds the exchange in time and size.
 */

/** One address a name resolved to. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (the default: the system's resolver, /etc/hosts included). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * How an outgoing request failed. `refused`: the URL's address is not public and not allowed (the caller tells its
 * user "private or disallowed network"); `invalid-url`: not an http(s) URL; `timeout`: the connect or total time ran
 * out; `connection`: refused, reset, DNS or TLS failure; `protocol`: the peer's answer was not HTTP; `too-many-redirects`;
 * `too-large`: a streamed answer passed its size cap.
 */
export type OutgoingFailure =
  'refused' | 'invalid-url' | 'timeout' | 'connection' | 'protocol' | 'too-many-redirects' | 'too-large';

export class OutgoingRequestError extends Error {
  constructor(
    readonly kind: OutgoingFailure,
    message: string,
    /** The system error code behind a connection or protocol failure (ECONNREFUSED, HPE_INVALID_CONSTANT, …). */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'OutgoingRequestError';
  }
}

export interface GuardedClientOptions {
  /**
   * Networks the operator allows although they are not public (CONFAB_OUTGOING_ALLOWED_CIDRS: bot servers inside the
   * cluster), as CIDRs (`10.1.0.0/16`, `fd00::/8`) or single addresses. They are allowed whatever their kind.
   */
  allowedCidrs?: readonly string[];
  /** Name resolution, replaceable by tests (a name that resolves to a private address). */
  resolve?: Resolver;
}

export interface GuardedRequest {
  method?: string;
  headers?: OutgoingHttpHeaders;
  body?: string | Buffer;
  /** Longest the whole exchange may take, redirects and the answer's body included, in ms. */
  timeoutMs: number;
  /** Longest one TCP connection may take to open, in ms (default: the total timeout). */
  connectTimeoutMs?: number;
  /** The most of an answer's body that is read; the connection is closed at the cap. */
  maxBytes: number;
  /** Redirects followed, each checked as the first URL; default 0: a 3xx answer is the answer. */
  maxRedirects?: number;
}

/** An answer read whole (`fetch`). */
export interface GuardedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** At most `maxBytes`. */
  body: Buffer;
  /** The answer was longer than `maxBytes`: the rest was not read, and the connection was closed. */
  truncated: boolean;
  /** The URL that answered (after redirects). */
  url: string;
}

/** An answer whose body is streamed (`open`): the stream fails with `too-large` past `maxBytes`, or with `timeout`. */
export interface GuardedStream {
  status: number;
  headers: IncomingHttpHeaders;
  url: string;
  body: Readable;
}

/** A URL's host as a plain address or name (IPv6 literals lose their brackets). */
function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

/**
 * What kind of address this is, by ipaddr.js's tables of special ranges: `unicast` only for a public address. An
 * IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is judged as the IPv4 address it carries; IPv6 outside the global
 * unicast block 2000::/3 (the IPv4-compatible `::a.b.c.d` among it) is `reserved`. Throws on what is no address.
 */
export function addressKind(address: string): string {
  const parsed = ipaddr.process(address);
  const kind = parsed.range();
  if (parsed.kind() === 'ipv6' && kind === 'unicast' && !parsed.match(GLOBAL_UNICAST_V6)) return 'reserved';
  return kind;
}

/** Whether `address` is a public unicast address (neither loopback, private, link-local, CGNAT, multicast, …). */
export function isPublicAddress(address: string): boolean {
  return addressKind(address) === 'unicast';
}

/** Parses an allow-list entry (a CIDR or a single address); throws on what is neither. */
export function parseAllowedCidr(entry: string): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  const text = entry.trim();
  if (text.includes('/')) {
    const [address, bits] = ipaddr.parseCIDR(text);
    // An IPv4-mapped network (::ffff:10.0.0.0/104) is the IPv4 network it carries, as the addresses it is matched with.
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96)
      return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
    return [address, bits];
  }
  const address = ipaddr.process(text);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}

const defaultResolver: Resolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/** System error codes of failures to connect (refused, unreachable, reset, DNS, TLS): Zulip's ConnectionError. */
const CONNECTION_CODES =
  /^(E(CONN|HOST|NET|PIPE|AI_|NOTFOUND|ADDR)|ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO|ERR_STREAM_PREMATURE)/;

function classify(err: Error): OutgoingRequestError {
  if (err instanceof OutgoingRequestError) return err;
  const code = (err as NodeJS.ErrnoException).code ?? '';
  if (code === 'ETIMEDOUT') return new OutgoingRequestError('timeout', err.message, code);
  if (CONNECTION_CODES.test(code)) return new OutgoingRequestError('connection', err.message, code);
  return new OutgoingRequestError('protocol', err.message, code || err.name);
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

interface Exchange {
  res: IncomingMessage;
  url: URL;
  /** Ends the exchange's timers once its body is read or dropped. */
  done: () => void;
  /** The failure an error while reading the body stands for (the total timeout, when it ended the exchange). */
  fail: (err: Error) => OutgoingRequestError;
}

/** The guarded client; one per process, built from its configuration (CONFAB_OUTGOING_ALLOWED_CIDRS). */
export class GuardedHttpClient {
  private readonly allowed: [ipaddr.IPv4 | ipaddr.IPv6, number][];
  private readonly resolve: Resolver;

  constructor(options: GuardedClientOptions = {}) {
    this.allowed = (options.allowedCidrs ?? []).map(parseAllowedCidr);
    this.resolve = options.resolve ?? defaultResolver;
  }

  /** Why `address` may not be reached (its kind: `loopback`, `private`, …), or null when it may. */
  refusal(address: string): string | null {
    const parsed = ipaddr.process(address);
    if (this.allowed.some(([net, bits]) => parsed.kind() === net.kind() && parsed.match(net, bits))) return null;
    const kind = addressKind(address);
    return kind === 'unicast' ? null : kind;
  }

  /** The answer read whole, up to `maxBytes` (the connection is closed there and the answer marked truncated). */
  async fetch(url: string, request: GuardedRequest): Promise<GuardedResponse> {
    const { res, url: final, done, fail } = await this.exchange(url, request);
    try {
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      for await (const chunk of res as AsyncIterable<Buffer>) {
        const room = request.maxBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size += room;
          truncated = true;
          break;
        }
        chunks.push(chunk);
        size += chunk.length;
      }
      return {
        status: res.statusCode ?? 0,
        headers: res.headers,
        body: Buffer.concat(chunks, size),
        truncated,
        url: final.href,
      };
    } catch (err) {
      throw fail(err as Error);
    } finally {
      // Closing the socket, not only ignoring the rest: a peer that sends gigabytes is stopped at the cap.
      res.destroy();
      done();
    }
  }

  /** The answer with its body as a stream, which fails (and closes the connection) past `maxBytes` or the timeout. */
  async open(url: string, request: GuardedRequest): Promise<GuardedStream> {
    const { res, url: final, done, fail } = await this.exchange(url, request);
    const max = request.maxBytes;
    async function* capped(): AsyncGenerator<Buffer> {
      let size = 0;
      try {
        for await (const chunk of res as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > max) throw new OutgoingRequestError('too-large', `the answer is larger than ${max} bytes`);
          yield chunk;
        }
      } catch (err) {
        throw fail(err as Error);
      } finally {
        res.destroy();
        done();
      }
    }
    const body = Readable.from(capped());
    // A stream dropped unread (destroyed before its first read never runs the generator's `finally`) closes the
    // connection and its timers too.
    body.once('close', () => {
      res.destroy();
      done();
    });
    return { status: res.statusCode ?? 0, headers: res.headers, url: final.href, body };
  }

  /** Sends the request and follows redirects (each hop checked), within the total timeout; answers the last hop. */
  private async exchange(rawUrl: string, request: GuardedRequest): Promise<Exchange> {
    const abort = new AbortController();
    const timer = setTimeout(
      () => abort.abort(new OutgoingRequestError('timeout', `no answer within ${request.timeoutMs} ms`)),
      request.timeoutMs,
    );
    const done = () => clearTimeout(timer);
    const fail = (err: Error) => classify(abort.signal.aborted ? (abort.signal.reason as Error) : err);
    let url = parseUrl(rawUrl);
    let method = (request.method ?? 'GET').toUpperCase();
    let body = request.body;
    let headers: OutgoingHttpHeaders = { ...request.headers };
    const maxRedirects = request.maxRedirects ?? 0;
    try {
      for (let hop = 0; ; hop++) {
        const res = await this.send(url, { method, headers, body }, request, abort.signal);
        const location = res.headers.location;
        if (!REDIRECTS.has(res.statusCode ?? 0) || maxRedirects === 0 || !location) return { res, url, done, fail };
        res.destroy();
        if (hop >= maxRedirects)
          throw new OutgoingRequestError('too-many-redirects', `Exceeded ${maxRedirects} redirects.`);
        const next = parseUrl(location, url);
        // As browsers and Python's requests do: 303, and 301/302 of a POST, become a GET without a body.
        if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
          if (method !== 'HEAD') method = 'GET';
          body = undefined;
          headers = withoutHeaders(headers, ['content-type', 'content-length']);
        }
        if (next.host !== url.host) headers = withoutHeaders(headers, ['authorization', 'cookie']);
        url = next;
      }
    } catch (err) {
      done();
      throw fail(err as Error);
    }
  }

  /** Resolves and checks the host, then one request connected to the address that was checked. */
  private async send(
    url: URL,
    what: { method: string; headers: OutgoingHttpHeaders; body: string | Buffer | undefined },
    request: GuardedRequest,
    signal: AbortSignal,
  ): Promise<IncomingMessage> {
    const host = hostOf(url);
    const addresses = isIP(host) ? [{ address: host, family: isIP(host) as 4 | 6 }] : await this.lookup(host, signal);
    for (const { address } of addresses) {
      const kind = this.refusal(address);
      if (kind !== null)
        throw new OutgoingRequestError(
          'refused',
          `${url.host} is ${address === host ? '' : `${address}, `}a ${kind} address: not a public network`,
        );
    }
    // The connection goes to the addresses just checked: the socket's lookup answers them and asks no resolver.
    const pinned: LookupFunction = (_hostname, options, callback) => {
      if (options.all) (callback as (e: null, a: ResolvedAddress[]) => void)(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    };
    const body = what.body === undefined ? undefined : Buffer.from(what.body);
    const headers = { ...what.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = send(url, { method: what.method, headers, lookup: pinned, agent: false, signal });
      const connectMs = request.connectTimeoutMs ?? request.timeoutMs;
      const connectTimer = setTimeout(
        () => req.destroy(new OutgoingRequestError('timeout', `no connection within ${connectMs} ms`)),
        connectMs,
      );
      req.on('socket', (socket) => {
        if (!socket.connecting) clearTimeout(connectTimer);
        else socket.once('connect', () => clearTimeout(connectTimer));
      });
      req.on('response', (res) => {
        clearTimeout(connectTimer);
        resolve(res);
      });
      req.on('error', (err) => {
        clearTimeout(connectTimer);
        reject(err);
      });
      req.end(body);
    });
  }

  private async lookup(host: string, signal: AbortSignal): Promise<ResolvedAddress[]> {
    let addresses: ResolvedAddress[];
    try {
      addresses = await Promise.race([
        this.resolve(host),
        new Promise<never>((_resolve, reject) => {
          if (signal.aborted) reject(signal.reason as Error);
          signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
        }),
      ]);
    } catch (err) {
      if (err instanceof OutgoingRequestError) throw err;
      const code = (err as NodeJS.ErrnoException).code ?? 'ENOTFOUND';
      throw new OutgoingRequestError('connection', `cannot resolve ${host}: ${(err as Error).message}`, code);
    }
    if (addresses.length === 0)
      throw new OutgoingRequestError('connection', `cannot resolve ${host}: no address`, 'ENOTFOUND');
    return addresses;
  }
}

function parseUrl(text: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    throw new OutgoingRequestError('invalid-url', `Invalid URL '${text}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new OutgoingRequestError('invalid-url', `Invalid URL '${text}': only http and https are allowed`);
  return url;
}

function withoutHeaders(headers: OutgoingHttpHeaders, names: string[]): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name.toLowerCase())));
}
