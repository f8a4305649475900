/**
 * Errors with Zulip's wire semantics: a machine-readable `code`, a human `msg`, an HTTP status and
 * extra fields that go into the error envelope (`stream`, `stream_id`, `retry-after`...).
 * Domain code throws these; exactly one HTTP middleware (in @confab/http) turns them into responses.
 */
export interface ConfabErrorOptions {
  /** Zulip's ErrorCode name; BAD_REQUEST unless a more specific code exists. */
  code?: string;
  /** HTTP status; 400 unless the error says otherwise. */
  status?: number;
  /** Extra fields of the error envelope. */
  data?: Record<string, unknown>;
  /** Extra response headers (e.g. WWW-Authenticate, Retry-After). */
  headers?: Record<string, string>;
}

export class ConfabError extends Error {
  readonly code: string;
  readonly status: number;
  readonly data: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(msg: string, options: ConfabErrorOptions = {}) {
    super(msg);
    this.name = 'ConfabError';
    this.code = options.code ?? 'BAD_REQUEST';
    this.status = options.status ?? 400;
    this.data = options.data ?? {};
    this.headers = options.headers ?? {};
  }
}

/** Zulip's JsonableError: 400 BAD_REQUEST unless a code is given. */
export function invalid(msg: string, code = 'BAD_REQUEST', data?: Record<string, unknown>): ConfabError {
  return new ConfabError(msg, { code, data });
}

/** Zulip's RequestVariableMissingError: a required parameter was not sent. */
export function missingArgument(name: string): ConfabError {
  return new ConfabError(`Missing '${name}' argument`, { code: 'REQUEST_VARIABLE_MISSING', data: { var_name: name } });
}

/** Zulip's ResourceNotFoundError: HTTP 404, but the code stays BAD_REQUEST unless given. */
export function notFound(msg: string, code = 'BAD_REQUEST'): ConfabError {
  return new ConfabError(msg, { code, status: 404 });
}

/** Zulip's OrganizationAdministratorRequiredError. */
export function organizationAdministratorRequired(): ConfabError {
  return new ConfabError('Must be an organization administrator', { code: 'UNAUTHORIZED_PRINCIPAL' });
}

/** Zulip's OrganizationOwnerRequiredError. */
export function organizationOwnerRequired(): ConfabError {
  return new ConfabError('Must be an organization owner', { code: 'UNAUTHORIZED_PRINCIPAL' });
}

export function forbidden(msg: string, code = 'BAD_REQUEST', data?: Record<string, unknown>): ConfabError {
  return new ConfabError(msg, { code, status: 403, data });
}

export const NOT_LOGGED_IN = 'Not logged in: API authentication or user session required';

/** 401 with the Basic challenge Zulip sends on /api/v1. */
export function unauthorized(msg: string = NOT_LOGGED_IN, code = 'UNAUTHORIZED'): ConfabError {
  return new ConfabError(msg, {
    code,
    status: 401,
    headers: { 'WWW-Authenticate': 'Basic realm="zulip"' },
  });
}

/** 429 RATE_LIMIT_HIT; `retryAfterSeconds` goes into the body field and the Retry-After header. */
export function rateLimited(retryAfterSeconds: number): ConfabError {
  const seconds = Math.max(0, retryAfterSeconds);
  return new ConfabError('API usage exceeded rate limit', {
    code: 'RATE_LIMIT_HIT',
    status: 429,
    data: { 'retry-after': seconds },
    headers: { 'Retry-After': String(Math.ceil(seconds)) },
  });
}

/** 503 SERVICE_UNAVAILABLE with Retry-After: a dependency (database, broker, another service) cannot answer now. */
export function serviceUnavailable(): ConfabError {
  return new ConfabError('Service temporarily unavailable, retry later', {
    status: 503,
    code: 'SERVICE_UNAVAILABLE',
    headers: { 'Retry-After': '1' },
  });
}

export function isConfabError(err: unknown): err is ConfabError {
  return err instanceof ConfabError;
}

/** Error codes meaning the database or another dependency cannot be reached right now (Prisma, pg, sockets). */
const UNAVAILABLE_CODES = new Set([
  'P1001', // can't reach database server
  'P1002', // database server timed out
  'P1008', // operation timed out
  'P1017', // server closed the connection
  'P2024', // timed out fetching a connection from the pool
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '25006', // read_only_sql_transaction: a standby that was the primary until a failover
  '53300', // too_many_connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006', // connection exceptions
]);

/** Kinds of Prisma's driver adapter errors that mean the database is not there right now. */
const UNAVAILABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);

/** Error names meaning Redis cannot be reached right now (ioredis gave up on the command). */
const UNAVAILABLE_NAMES = new Set(['MaxRetriesPerRequestError']);

const UNAVAILABLE_MESSAGE =
  /Connection terminated|Can't reach database server|connect ECONNREFUSED|Connection is closed|Stream isn't writeable|Command timed out|the database system is (starting up|shutting down|in recovery mode)/;

/**
 * True for failures that a retry after the dependency comes back would not have (a 503 for a client, not an opaque
 * 500; a retry without end for a consumer, not a dead letter): our own 503s, and driver errors. The
 * cause may be wrapped: an error's `cause`, and Prisma's driver adapter error inside a known request error's `meta`
 * (`P2010` for a raw query whose connection the server ended, with the SQLSTATE in the adapter's cause).
 */
export function isUnavailable(err: unknown): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [err];
  while (pending.length > 0 && seen.size < 12) {
    const e = pending.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const { code, kind, name, message, cause, meta } = e as {
      code?: unknown;
      kind?: unknown;
      name?: unknown;
      message?: unknown;
      cause?: unknown;
      meta?: { driverAdapterError?: unknown; code?: unknown };
    };
    if (e instanceof ConfabError) {
      if (e.status === 503) return true;
      continue;
    }
    if (typeof code === 'string' && UNAVAILABLE_CODES.has(code)) return true;
    if (typeof kind === 'string' && UNAVAILABLE_KINDS.has(kind)) return true;
    if (typeof name === 'string' && UNAVAILABLE_NAMES.has(name)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message)) return true;
    if (typeof meta?.code === 'string' && UNAVAILABLE_CODES.has(meta.code)) return true;
    pending.push(cause, meta?.driverAdapterError);
  }
  return false;
}
