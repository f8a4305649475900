/**
 * What the compose box offers for what is being typed, ranked, with the text each choice inserts (pure): channels,
 * topics, people and groups, commands. Matching is by word start, as Zulip's typeahead: "ver" finds "Verona" and
 * "rome" finds "Ancient Rome", "ome" finds neither.
 */
import type { Suggestion } from './autocomplete';

const LIMIT = 8;

/** How well `name` matches `query`: 0 when it starts with it, 1 when a later word does, -1 when none does. */
export function wordPrefixRank(name: string, query: string): number {
  const q = query.trim().toLowerCase();
  const n = name.toLowerCase();
  if (n.startsWith(q)) return 0;
  return n.split(/[\s\-_/.,:()]+/).some((word) => word.startsWith(q)) ? 1 : -1;
}

export interface ChannelChoice {
  stream_id: number;
  name: string;
  description?: string;
  is_archived?: boolean;
}

/**
 * The channels to link after `#`: the ones one is subscribed to first, then the others one can see (not archived);
 * within each, names starting with the query before names with a later word starting with it, then by name.
 */
export function channelSuggestions(
  query: string,
  subscribed: readonly ChannelChoice[],
  visible: readonly ChannelChoice[],
): Suggestion[] {
  const mine = new Set(subscribed.map((s) => s.stream_id));
  const all = [...subscribed, ...visible.filter((s) => !mine.has(s.stream_id))].filter((s) => !s.is_archived);
  return all
    .map((s) => ({ s, rank: wordPrefixRank(s.name, query), sub: mine.has(s.stream_id) ? 0 : 1 }))
    .filter((x) => x.rank >= 0)
    .sort((a, b) => a.sub - b.sub || a.rank - b.rank || a.s.name.localeCompare(b.s.name))
    .slice(0, LIMIT)
    .map(({ s }) => ({
      key: `c${s.stream_id}`,
      label: s.name,
      detail: s.description || undefined,
      insert: `#**${s.name}** `,
    }));
}

/** The channel a `#**Name>` names: the exact name, else the one name differing only in case. */
export function channelNamed<T extends ChannelChoice>(name: string, channels: readonly T[]): T | undefined {
  return channels.find((c) => c.name === name) ?? channels.find((c) => c.name.toLowerCase() === name.toLowerCase());
}

/**
 * The topics of `channel` to link after `#**channel>`: `topics` is the channel's, most recent first; matches by word
 * start keep that order, prefix matches first. A query naming no topic yet is offered last, as a new topic's link.
 */
export function topicSuggestions(channel: string, query: string, topics: readonly string[]): Suggestion[] {
  const matches = topics
    .map((topic, i) => ({ topic, i, rank: wordPrefixRank(topic, query) }))
    .filter((x) => x.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.i - b.i)
    .slice(0, LIMIT)
    .map(({ topic }) => topic);
  const typed = query.trim();
  if (typed && !topics.some((t) => t.toLowerCase() === typed.toLowerCase())) matches.push(typed);
  return matches.map((topic) => ({ key: `t${topic}`, label: topic, insert: `#**${channel}>${topic}** ` }));
}

export interface PersonChoice {
  user_id: number;
  full_name: string;
  is_active?: boolean;
}

export interface GroupChoice {
  id: number;
  name: string;
  description?: string;
  is_system_group?: boolean;
  deactivated?: boolean;
}

/**
 * The people, then the groups (the organization's own, not deactivated), to mention after `@` (`@_`: silently):
 * `@**Name**` or `@*group*`, `@_**Name**` or `@_*group*`. People whose name starts with the query come first.
 */
export function mentionSuggestions(
  query: string,
  silent: boolean,
  people: readonly PersonChoice[],
  groups: readonly GroupChoice[],
): Suggestion[] {
  const mark = silent ? '@_' : '@';
  const ranked = <T>(list: readonly T[], name: (x: T) => string) =>
    list
      .map((x) => ({ x, rank: wordPrefixRank(name(x), query) }))
      .filter((m) => m.rank >= 0)
      .sort((a, b) => a.rank - b.rank || name(a.x).localeCompare(name(b.x)))
      .map((m) => m.x);
  const users = ranked(
    people.filter((p) => p.is_active !== false),
    (p) => p.full_name,
  )
    .slice(0, LIMIT)
    .map((p) => ({ key: `u${p.user_id}`, label: p.full_name, insert: `${mark}**${p.full_name}** ` }));
  const teams = ranked(
    groups.filter((g) => !g.is_system_group && !g.deactivated),
    (g) => g.name,
  )
    .slice(0, 4)
    .map((g) => ({
      key: `g${g.id}`,
      label: g.name,
      detail: g.description ? `Group · ${g.description}` : 'Group',
      insert: `${mark}*${g.name}* `,
    }));
  return [...users, ...teams];
}

/** The `/` commands, as Zulip's compose box offers them at the start of a message. */
export const COMMANDS = [
  { name: 'me', info: 'Action message' },
  { name: 'poll', info: 'Create a poll' },
  { name: 'todo', info: 'Create a collaborative to-do list' },
] as const;

export function commandSuggestions(query: string): Suggestion[] {
  return COMMANDS.filter((c) => c.name.startsWith(query.toLowerCase())).map((c) => ({
    key: `/${c.name}`,
    label: `/${c.name}`,
    detail: c.info,
    insert: `/${c.name} `,
  }));
}
