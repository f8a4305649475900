import { invalid, missingArgument } from '@confab/errors';
import type { WebhookRequest } from '../framework.js';

/**
 * Zulip's REQ() of a plain parameter (query string or form body), as the integrations that read fields instead of
 * a JSON body take them (Zendesk's ticket_title): absent, Zulip's 400 "Missing '<name>' argument".
 */
export function requiredParam(request: WebhookRequest, name: string): string {
  const value = request.params.get(name);
  if (value === undefined) throw missingArgument(name);
  return value;
}

/**
 * Zulip's `Json[bool]` parameter (GitLab's use_merge_request_title): the parameter's text read as JSON, which must be
 * a boolean; absent, `fallback`.
 */
export function jsonBoolParam(request: WebhookRequest, name: string, fallback: boolean): boolean {
  const raw = request.params.get(name);
  if (raw === undefined) return fallback;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalid(`${name} is not valid JSON`);
  }
  if (typeof value !== 'boolean') throw invalid(`${name} is not a boolean`);
  return value;
}
