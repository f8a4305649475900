/** The session-authenticated API (/json/*, the gateway's twin of /api/v1) and sign-in/out. */

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    msg: string,
    /** The whole answer (Zulip adds fields to some errors, e.g. each refused address of an invitation). */
    readonly body: Record<string, unknown> = {},
    /** The answer's Retry-After header in seconds, when it has one. */
    readonly retryAfter?: number,
  ) {
    super(msg);
  }
}

export function csrfToken(): string {
  const match = /(?:^|;\s*)confab_csrftoken=([^;]*)/.exec(document.cookie);
  return match ? decodeURIComponent(match[1]) : '';
}

type Params = Record<string, string | number | boolean | unknown[] | object | undefined>;

function encode(params: Params): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    form.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return form;
}

async function call<T>(method: string, url: string, params: Params | FormData = {}, signal?: AbortSignal): Promise<T> {
  const safe = method === 'GET';
  const form = params instanceof FormData ? params : encode(params);
  const target = safe && !(params instanceof FormData) ? `${url}?${encode(params).toString()}` : url;
  const response = await fetch(target, {
    method,
    credentials: 'same-origin',
    headers: safe ? {} : { 'X-CSRFToken': csrfToken() },
    body: safe ? undefined : form,
    signal,
  });
  let body: Record<string, unknown> = {};
  try {
    body = (await response.json()) as Record<string, unknown>;
  } catch {
    // A proxy's HTML error page: keep the status.
  }
  if (!response.ok || body.result !== 'success') {
    const code = typeof body.code === 'string' ? body.code : 'BAD_REQUEST';
    const retry = Number(response.headers.get('Retry-After') ?? NaN);
    throw new ApiError(
      response.status,
      code,
      typeof body.msg === 'string' ? body.msg : response.statusText,
      body,
      Number.isFinite(retry) ? retry : undefined,
    );
  }
  return body as T;
}

export const api = {
  get: <T>(path: string, params?: Params, signal?: AbortSignal) => call<T>('GET', `/json${path}`, params, signal),
  post: <T>(path: string, params?: Params) => call<T>('POST', `/json${path}`, params),
  patch: <T>(path: string, params?: Params) => call<T>('PATCH', `/json${path}`, params),
  delete: <T>(path: string, params?: Params) => call<T>('DELETE', `/json${path}`, params),
  /** A multipart POST (files), without upload progress (compose/upload.ts reports progress). */
  upload: <T>(path: string, form: FormData) => call<T>('POST', `/json${path}`, form),
};

export function login(username: string, password: string) {
  return call<{ email: string; user_id: number }>('POST', '/accounts/login', { username, password });
}

export function logout() {
  return call('POST', '/accounts/logout');
}
