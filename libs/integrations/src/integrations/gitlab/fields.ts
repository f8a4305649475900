import type { Json } from '../../framework.js';
import { pyTruthy } from '../../toolkit/pyformat.js';
import { list, str } from '../../toolkit/wild.js';

/** The fields of GitLab's payloads the event bodies and topics share (zerver/webhooks/gitlab's helpers). */

export interface Context {
  includeTitle: boolean;
}

export type Body = (payload: Json, context: Context) => string;

/** WildValue's `payload[key]`: a field the view insists on. */
export function at(value: Json, key: string): Json {
  if (typeof value !== 'object' || value === null || !(key in value)) throw new TypeError(`missing ${key}`);
  return value[key];
}

export function has(value: Json, key: string): boolean {
  return typeof value === 'object' && value !== null && key in value;
}

export const repoName = (payload: Json): string =>
  has(payload, 'project') ? str(at(at(payload, 'project'), 'name')) : str(at(at(payload, 'repository'), 'name'));
export const projectHomepage = (payload: Json): string =>
  has(payload, 'project') ? str(at(at(payload, 'project'), 'web_url')) : str(at(at(payload, 'repository'), 'homepage'));
export const userName = (payload: Json): string => str(at(payload, 'user_name'));
export const issueUserName = (payload: Json): string => str(at(at(payload, 'user'), 'name'));
export const branchName = (payload: Json): string => str(at(payload, 'ref')).replace('refs/heads/', '');
export const tagName = (payload: Json): string => str(at(payload, 'ref')).replace('refs/tags/', '');
export const attributes = (payload: Json): Json => at(payload, 'object_attributes');
export const titleIf = (value: Json, context: Context): string | null =>
  context.includeTitle ? str(at(value, 'title')) : null;

/** get_assignees and replace_assignees_username_with_name: the assignees by their full names. */
export function assignees(payload: Json): { username: string }[] {
  let found: Json = has(payload, 'assignees') ? payload.assignees : null;
  if (!pyTruthy(found)) {
    const single = has(payload, 'assignee') ? payload.assignee : null;
    found = pyTruthy(single) ? [single] : [];
  }
  return list(found).map((assignee) => ({ username: str(at(assignee, 'name')) }));
}
