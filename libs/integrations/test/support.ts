import { webhookRequest, type WebhookRequest } from '../src/index.js';

/** A request as a provider would send it: a JSON body unless told, the URL's parameters, any headers. */
export function jsonRequest(
  body: unknown,
  options: { query?: Record<string, string>; headers?: Record<string, string>; method?: string } = {},
): WebhookRequest {
  return webhookRequest({
    method: options.method ?? 'POST',
    path: '/api/v1/external/test',
    query: new URLSearchParams({ stream: 'test', ...options.query }).toString(),
    headers: { 'content-type': 'application/json', ...options.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** A form-encoded request (the providers that POST `payload=<json>` or plain fields). */
export function formRequest(
  fields: Record<string, string>,
  options: { query?: Record<string, string>; headers?: Record<string, string> } = {},
): WebhookRequest {
  return webhookRequest({
    method: 'POST',
    path: '/api/v1/external/test',
    query: new URLSearchParams({ stream: 'test', ...options.query }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
    body: new URLSearchParams(fields).toString(),
  });
}
