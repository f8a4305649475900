import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { ConfabError, invalid, serviceUnavailable } from '@confab/errors';
import { IDENTITY_HEADER, IdentitySigner } from '@confab/identity';
import { JSON_TEXT_HEADER, readJsonTextAnswer } from './responses.js';
import { CAUSAL_HEADER, causalHeader, type CausalFor } from './causal-header.js';

/** A parser of an answer's body (a zod schema's `parse` fits): throws when the body is not what the caller needs. */
export interface AnswerShape<T> {
  parse(body: unknown): T;
}

/** An internal endpoint with a JSON body and its schemas (`internal.endpoints` of @confab/events). */
export interface EndpointShape<Req, Res> {
  method: string;
  path: string;
  request: AnswerShape<Req>;
  response: AnswerShape<Res>;
}

/**
 * An internal request's JSON body, parsed with its endpoint's schema (the one its callers build it with), or a 400
 * that says what is wrong.
 */
export function parseRequest<Req>(endpoint: Pick<EndpointShape<Req, unknown>, 'request'>, json: unknown): Req {
  try {
    return endpoint.request.parse(json);
  } catch (err) {
    const issue = (err as { issues?: { path?: unknown[]; message?: string }[] }).issues?.[0];
    const where = issue?.path?.length ? ` at ${issue.path.join('.')}` : '';
    throw invalid(`Invalid request body${where}: ${issue?.message ?? 'not the expected shape'}`);
  }
}

export interface ServiceClientOptions {
  /** The calling service, as its signed identity names it. */
  caller: string;
  /** The called service's base URL; empty when it is not configured (calls then answer 503). */
  baseUrl: string;
  secret: string;
  /** Longest one call may take, in ms (default 10 s). */
  timeoutMs?: number;
}

/** An internal endpoint's answer as received: its status and its JSON body (an empty object when unreadable). */
export interface InternalAnswer {
  status: number;
  body: Record<string, unknown>;
}

export interface CallOptions {
  /** JSON request body (POST, PATCH). */
  body?: unknown;
  /**
   * A call made for a user's request: their own recent events, which the called service applies before answering
   * (`CAUSAL_HEADER`), as it would for the user's own request.
   */
  causal?: CausalFor;
  /** Query-string parameters; values that are not strings are JSON-encoded, as Zulip's Json[...] parameters are. */
  query?: Record<string, unknown>;
}

/**
 * The one way a Confab process calls another's internal API (`/internal/...`, docs/architecture.md "Identity"):
 * a signed service identity (re-used for half its lifetime), a time limit, JSON both ways, and one mapping of
 * failures. `call` answers the parsed body of a 200; a 400 carrying a Zulip error is that error, meant for the user;
 * anything else — no answer, another status, a body of the wrong shape — is a 503.
 */
export class ServiceClient {
  private readonly signer: IdentitySigner;

  constructor(private readonly options: ServiceClientOptions) {
    this.signer = new IdentitySigner(options.secret);
  }

  get configured(): boolean {
    return this.options.baseUrl !== '';
  }

  private url(path: string, query: CallOptions['query']): string {
    const url = `${this.options.baseUrl}/internal${path}`;
    if (!query) return url;
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined) params.set(key, typeof value === 'string' ? value : JSON.stringify(value));
    }
    return `${url}?${params.toString()}`;
  }

  /** One request; throws only when no answer came (refused, reset, timeout) or the service is not configured. */
  async request(method: string, path: string, options: CallOptions = {}): Promise<InternalAnswer> {
    if (!this.configured) throw serviceUnavailable();
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
    const headers: Record<string, string> = {
      [IDENTITY_HEADER]: this.signer.sign({ kind: 'service', service: this.options.caller }),
    };
    if (options.causal?.events.length) headers[CAUSAL_HEADER] = causalHeader(options.causal);
    if (payload !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(Buffer.byteLength(payload));
    }
    let answer: { status: number; body: Buffer; layout?: string };
    try {
      answer = await exchange(
        this.url(path, options.query),
        method,
        headers,
        payload,
        this.options.timeoutMs ?? 10_000,
      );
    } catch {
      throw serviceUnavailable();
    }
    let parsed: unknown = {};
    try {
      // Fields the service sent as JSON text stay JSON text (passed on as they are, never parsed here).
      parsed =
        (answer.layout && readJsonTextAnswer(answer.body, answer.layout)) || JSON.parse(answer.body.toString('utf8'));
    } catch {
      // An unreadable body is an empty one.
    }
    const body = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    return { status: answer.status, body };
  }

  /** Calls an endpoint of the internal contracts: the body built to its request schema, the answer read with its own. */
  send<Req, Res>(endpoint: EndpointShape<Req, Res>, body: Req): Promise<Res> {
    return this.call(endpoint.method, endpoint.path, endpoint.response, { body: endpoint.request.parse(body) });
  }

  /** The body of a 200 in the shape the caller needs, or the Zulip error of a 400, or a 503. */
  async call<T>(method: string, path: string, shape: AnswerShape<T>, options: CallOptions = {}): Promise<T> {
    const answer = await this.request(method, path, options);
    if (answer.status === 200) {
      try {
        return shape.parse(answer.body);
      } catch {
        throw serviceUnavailable();
      }
    }
    throw errorOf(answer);
  }
}

/** A 400 with a Zulip error is that error (its extra fields kept); anything else is a 503. */
function errorOf(answer: InternalAnswer): ConfabError {
  if (answer.status === 400 && typeof answer.body.msg === 'string') {
    const { result: _result, msg, code, ...data } = answer.body;
    return new ConfabError(msg, { code: typeof code === 'string' ? code : 'BAD_REQUEST', data });
  }
  return serviceUnavailable();
}

// Internal calls keep their connections open between requests (node:http with a keep-alive agent costs less CPU per
// call than fetch: bench/RESULTS.md, "The internal client"). Idle sockets are dropped after 30 s, well before the
// services' own 65 s keep-alive, so a call never lands on a socket the other side is closing (as the gateway's).
const keepAlive = { keepAlive: true, timeout: 30_000 };
const agents = { http: new HttpAgent(keepAlive), https: new HttpsAgent(keepAlive) };

/** One HTTP exchange with a deadline for the whole of it: the status and the body's bytes. */
function exchange(
  url: string,
  method: string,
  headers: Record<string, string>,
  payload: string | undefined,
  timeoutMs: number,
): Promise<{ status: number; body: Buffer; layout?: string }> {
  return new Promise((resolve, reject) => {
    const secure = url.startsWith('https:');
    const req = (secure ? httpsRequest : httpRequest)(
      url,
      { method, headers, agent: secure ? agents.https : agents.http },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          clearTimeout(deadline);
          const layout = res.headers[JSON_TEXT_HEADER];
          const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, body, ...(typeof layout === 'string' ? { layout } : {}) });
        });
        res.on('error', fail);
        res.on('aborted', () => fail(new Error('response aborted')));
      },
    );
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    function fail(err: Error): void {
      clearTimeout(deadline);
      reject(err);
    }
    req.on('error', fail);
    req.end(payload);
  });
}
