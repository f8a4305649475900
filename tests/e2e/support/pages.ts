import { request } from 'node:http';

export interface PageResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * A browser-like request for a page outside /api/v1 (a mailed link, an OAuth redirect): no credentials, sent to
 * `baseUrl` with the Host header of `url`, so the organization's subdomain reaches the server as a browser sends it.
 */
export function openPage(
  baseUrl: string,
  url: string,
  options: { method?: string; form?: Record<string, string> } = {},
): Promise<PageResponse> {
  const target = new URL(url);
  const base = new URL(baseUrl);
  const body = options.form ? new URLSearchParams(options.form).toString() : undefined;
  const headers: Record<string, string> = { host: target.host, accept: 'text/html' };
  if (body !== undefined) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    headers['content-length'] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? 'GET',
        headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}
