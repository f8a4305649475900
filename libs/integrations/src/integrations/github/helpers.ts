import type { Json } from '../../framework.js';
import { str } from '../../toolkit/wild.js';

/** What every GitHub body function reads: the payload's common fields, as Zulip's github view reads them. */

/** What a body function sees (Zulip's Helper): the payload and whether the URL fixed the topic. */
export interface Helper {
  payload: Json;
  includeTitle: boolean;
}

/** WildValue's tame(check_bool). */
export function bool(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new TypeError('expected a bool');
  return value;
}

/** `key in payload` of a WildValue dict. */
export function has(value: Json, key: string): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && key in value;
}

/** `payload.get(key, {})`. */
export function getDict(value: Json, key: string): Json {
  return has(value, key) ? value[key] : {};
}

export function senderName(payload: Json): string {
  return str(payload.sender.login);
}

export function senderUrl(payload: Json): string {
  return str(payload.sender.html_url);
}

export function repositoryName(payload: Json): string {
  return str(payload.repository.name);
}

export function repositoryFullName(payload: Json): string {
  return str(payload.repository.full_name);
}

export function branchNameFromRef(ref: string): string {
  return ref.replace(/^refs\/heads\//, '');
}

export function tagNameFromRef(ref: string): string {
  return ref.replace(/^refs\/tags\//, '');
}

/** "[commented](url) on" or "{action} a [comment](url) on" (get_comment_action). */
export function commentAction(payload: Json): string {
  const action = str(payload.action);
  const text = action === 'created' ? '[commented]' : `${action} a [comment]`;
  return `${text}(${str(payload.comment.html_url)}) on`;
}

/** When a comment is made on a PR, GitHub still sends "issue_comment", with a pull_request key in the issue. */
export function isPullRequestComment(payload: Json): boolean {
  return has(payload.issue, 'pull_request');
}
