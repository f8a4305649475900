import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { randomBytes } from 'node:crypto';

export interface ApiResponse<T = Record<string, any>> {
  status: number;
  headers: IncomingHttpHeaders;
  /** Parsed JSON (or `{}` when the body is not JSON). */
  body: T;
  text: string;
}

export type Params = Record<string, unknown>;

export interface RequestOptions {
  /** Where parameters go: a form body (default for writes), the query string (default for GET), or multipart. */
  encoding?: 'form' | 'query' | 'multipart';
  headers?: Record<string, string>;
  /** Files for multipart uploads. */
  files?: { field: string; filename: string; contentType: string; data: Buffer }[];
}

/** Paths the gateway serves outside /api/v1 (pages and files a browser or app opens). */
const NON_API_PREFIXES = [
  '/api/',
  '/json/',
  '/accounts/',
  '/join',
  '/user_uploads',
  '/thumbnail',
  '/external_content/',
];

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** Zulip's encoding: strings as they are, everything else (numbers, booleans, lists, objects) as JSON text. */
export function encodeParam(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function formBody(params: Params): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value !== undefined) search.append(key, encodeParam(value));
  return search.toString();
}

function multipartBody(params: Params, files: NonNullable<RequestOptions['files']>): { body: Buffer; type: string } {
  const boundary = `----confab${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${encodeParam(value)}\r\n`),
    );
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

/**
 * A small Zulip API client over node:http: Basic authentication, Zulip's parameter encoding, and a settable Host
 * header (organizations are told apart by subdomain).
 */
export class ApiClient {
  constructor(
    readonly baseUrl: string,
    readonly options: { email?: string; apiKey?: string; host?: string; forwardedFor?: string } = {},
  ) {}

  withCredentials(email: string, apiKey: string): ApiClient {
    return new ApiClient(this.baseUrl, { ...this.options, email, apiKey });
  }

  withoutCredentials(): ApiClient {
    return new ApiClient(this.baseUrl, { ...this.options, email: undefined, apiKey: undefined });
  }

  get<T = Record<string, any>>(path: string, params: Params = {}, options: RequestOptions = {}) {
    return this.request<T>('GET', path, params, { encoding: 'query', ...options });
  }
  post<T = Record<string, any>>(path: string, params: Params = {}, options: RequestOptions = {}) {
    return this.request<T>('POST', path, params, options);
  }
  patch<T = Record<string, any>>(path: string, params: Params = {}, options: RequestOptions = {}) {
    return this.request<T>('PATCH', path, params, options);
  }
  delete<T = Record<string, any>>(path: string, params: Params = {}, options: RequestOptions = {}) {
    return this.request<T>('DELETE', path, params, options);
  }

  /** `path` is relative to /api/v1 unless it is one of the non-API paths (/join/..., /user_uploads/..., /thumbnail). */
  request<T = Record<string, any>>(
    method: string,
    path: string,
    params: Params = {},
    options: RequestOptions = {},
  ): Promise<ApiResponse<T>> {
    const url = new URL(NON_API_PREFIXES.some((p) => path.startsWith(p)) ? path : `/api/v1${path}`, this.baseUrl);
    const headers: Record<string, string> = {};
    if (this.options.email !== undefined && this.options.apiKey !== undefined) {
      headers.authorization = `Basic ${Buffer.from(`${this.options.email}:${this.options.apiKey}`).toString('base64')}`;
    }
    if (this.options.host) headers.host = this.options.host;
    if (this.options.forwardedFor) headers['x-forwarded-for'] = this.options.forwardedFor;
    // Headers given for this request win over the client's own.
    Object.assign(headers, options.headers);
    let body: Buffer | undefined;
    const encoding = options.encoding ?? (options.files ? 'multipart' : 'form');
    if (encoding === 'query') {
      for (const [key, value] of Object.entries(params))
        if (value !== undefined) url.searchParams.append(key, encodeParam(value));
    } else if (encoding === 'multipart') {
      const multipart = multipartBody(params, options.files ?? []);
      body = multipart.body;
      headers['content-type'] = multipart.type;
    } else if (Object.keys(params).length > 0) {
      body = Buffer.from(formBody(params));
      headers['content-type'] = 'application/x-www-form-urlencoded';
    }
    if (body) headers['content-length'] = String(body.length);
    return new Promise((resolve, reject) => {
      const req = request(url, { method, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = {};
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: parsed as T, text });
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      if (body) req.write(body);
      req.end();
    });
  }
}
