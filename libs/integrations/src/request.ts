import { InvalidJsonError, type Json, type WebhookRequest } from './framework.js';

/** What a webhook request is made of, as it arrived (the integrations service's HTTP request, or a checked case). */
export interface RequestParts {
  method: string;
  path: string;
  /** The query string without its `?`. */
  query: string;
  headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  body: string;
  /** Form fields parsed elsewhere (a multipart body); without them an urlencoded body is parsed here. */
  form?: ReadonlyMap<string, string>;
}

/** Parses a query string or form body; a repeated key keeps its last value, as Django's QueryDict.get does. */
export function parseForm(text: string): Map<string, string> {
  const out = new Map<string, string>();
  if (text.length > 0) for (const [key, value] of new URLSearchParams(text)) out.set(key, value);
  return out;
}

/** The request an integration sees (framework.ts), with Zulip's reading of parameters and of the JSON body. */
export function webhookRequest(parts: RequestParts): WebhookRequest {
  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(parts.headers)) {
    if (value !== undefined) headers.set(name.toLowerCase(), typeof value === 'string' ? value : value.join(', '));
  }
  const contentType = (headers.get('content-type') ?? '').toLowerCase();
  const params = parseForm(parts.query);
  const form =
    parts.form ?? (contentType.startsWith('application/x-www-form-urlencoded') ? parseForm(parts.body) : undefined);
  if (form) for (const [key, value] of form) params.set(key, value);
  let parsed: { value: Json } | undefined;
  return {
    method: parts.method.toUpperCase(),
    path: parts.path,
    params,
    header: (name) => headers.get(name.toLowerCase()),
    body: parts.body,
    contentType,
    json() {
      if (parsed === undefined) {
        try {
          parsed = { value: JSON.parse(parts.body) };
        } catch {
          throw new InvalidJsonError();
        }
      }
      return parsed.value;
    },
  };
}
