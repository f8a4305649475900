import type { StateInline } from 'markdown-it';
import { parseEnv, type ParseEnv } from '../env.js';
import type { MentionableGroup, MentionableUser } from '../types.js';
import { mentionMayStartAt } from './boundary.js';

const USER_MENTION = /@(_?)\*\*([^*]+)\*\*/y;
const GROUP_MENTION = /@(_?)\*([^*]+)\*/y;
const ID_SYNTAX = /^(.+)?\|(\d+)$/;
const CHANNEL_WILDCARDS = new Set(['all', 'everyone', 'stream', 'channel']);
const TOPIC_WILDCARD = 'topic';

export type UserMention =
  | { kind: 'user'; user: MentionableUser; silent: boolean }
  | { kind: 'channel-wildcard' | 'topic-wildcard'; name: string; silent: boolean };

export interface GroupMention {
  group: MentionableGroup;
  silent: boolean;
}

function sticky(re: RegExp, src: string, pos: number): RegExpExecArray | null {
  re.lastIndex = pos;
  return re.exec(src);
}

/** Resolves `@**name**`, `@**name|id**` and wildcards; `undefined` leaves the text to other rules. */
function resolveUser(name: string, silent: boolean, env: ParseEnv): UserMention | undefined {
  if (CHANNEL_WILDCARDS.has(name)) return { kind: 'channel-wildcard', name, silent };
  if (name === TOPIC_WILDCARD) return { kind: 'topic-wildcard', name, silent };
  const { usersById, usersByName } = env.context;
  const idSyntax = ID_SYNTAX.exec(name);
  let user: MentionableUser | undefined;
  if (idSyntax !== null) {
    user = usersById.get(Number(idSyntax[2]));
    // `@**Name|id**` must name that very user.
    if (idSyntax[1] !== undefined && user !== undefined && user.fullName !== idSyntax[1]) return undefined;
  } else {
    user = usersByName.get(name.toLowerCase());
  }
  if (user === undefined) return undefined;
  return { kind: 'user', user, silent: silent || user.isActive === false };
}

function recordUser(name: string, silent: boolean, env: ParseEnv): void {
  if (CHANNEL_WILDCARDS.has(name) || name === TOPIC_WILDCARD) {
    if (!silent) env.refs.hasWildcardMention = true;
    return;
  }
  const idSyntax = ID_SYNTAX.exec(name);
  if (idSyntax === null) env.refs.userNames.add(name);
  else env.refs.userIds.add(Number(idSyntax[2]));
}

/** End of a user mention that the context resolves (any syntactic one when extracting), or -1. */
export function matchUserMention(src: string, pos: number, env: ParseEnv): number {
  if (!mentionMayStartAt(src, pos)) return -1;
  const m = sticky(USER_MENTION, src, pos);
  if (m === null) return -1;
  if (env.mode === 'extract') return USER_MENTION.lastIndex;
  return resolveUser(m[2]!, m[1] === '_', env) === undefined ? -1 : USER_MENTION.lastIndex;
}

export function matchGroupMention(src: string, pos: number, env: ParseEnv): number {
  if (!mentionMayStartAt(src, pos)) return -1;
  const m = sticky(GROUP_MENTION, src, pos);
  if (m === null) return -1;
  if (env.mode === 'extract') return GROUP_MENTION.lastIndex;
  return env.context.groupsByName.has(m[2]!.toLowerCase()) ? GROUP_MENTION.lastIndex : -1;
}

export function userMention(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x40 /* @ */ || !mentionMayStartAt(state.src, state.pos)) return false;
  const m = sticky(USER_MENTION, state.src, state.pos);
  if (m === null || USER_MENTION.lastIndex > state.posMax) return false;
  const end = USER_MENTION.lastIndex;
  const env = parseEnv(state.env);
  const name = m[2]!;
  const isSilent = m[1] === '_';
  if (env.mode === 'extract') {
    if (!silent) recordUser(name, isSilent, env);
  } else {
    const mention = resolveUser(name, isSilent, env);
    if (mention === undefined) return false;
    if (!silent) state.push('zulip_user_mention', 'span', 0).meta = { mention };
  }
  state.pos = end;
  return true;
}

export function groupMention(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x40 || !mentionMayStartAt(state.src, state.pos)) return false;
  const m = sticky(GROUP_MENTION, state.src, state.pos);
  if (m === null || GROUP_MENTION.lastIndex > state.posMax) return false;
  const end = GROUP_MENTION.lastIndex;
  const env = parseEnv(state.env);
  const name = m[2]!;
  if (env.mode === 'extract') {
    if (!silent) env.refs.groupNames.add(name);
  } else {
    const group = env.context.groupsByName.get(name.toLowerCase());
    if (group === undefined) return false;
    const mention: GroupMention = { group, silent: m[1] === '_' || group.deactivated === true };
    if (!silent) state.push('zulip_group_mention', 'span', 0).meta = { mention };
  }
  state.pos = end;
  return true;
}
