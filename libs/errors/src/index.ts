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
