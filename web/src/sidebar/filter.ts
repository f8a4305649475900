/**
 * What the sidebar's filter boxes match, as Zulip's left sidebar does: a channel when its name, or one of its words,
 * starts with what was typed (several choices separated by commas); a person when every word typed starts one of
 * the words of their name, or their email address starts with what was typed. Case and accents do not matter.
 */

/** Lower case without accents ("Élodie" → "elodie"), so "elo" finds her. */
export const fold = (text: string): string => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/** Where a word starts inside a channel's name: after a space, a slash, an underscore or a hyphen. */
const CHANNEL_WORD_BREAK = /[\s/_-]/;

/** The choices typed in the channel filter: comma-separated, trimmed, a leading '#' ignored ("#den, soc"). */
export function channelTerms(query: string): string[] {
  return fold(query)
    .split(',')
    .map((term) => term.trim().replace(/^#/, ''))
    .filter(Boolean);
}

/** Whether a channel's name matches the filter (an empty filter matches every channel). */
export function channelMatches(name: string, query: string): boolean {
  const terms = channelTerms(query);
  if (terms.length === 0) return true;
  const folded = fold(name);
  return terms.some((term) => {
    for (let at = folded.indexOf(term); at !== -1; at = folded.indexOf(term, at + 1))
      if (at === 0 || CHANNEL_WORD_BREAK.test(folded[at - 1])) return true;
    return false;
  });
}

/** The channels whose names match, in their order. */
export const filterChannels = <T extends { name: string }>(channels: readonly T[], query: string): T[] =>
  channels.filter((c) => channelMatches(c.name, query));

/** The words of a person's name ("Cordelia, Lear’s daughter" → cordelia, lear, s, daughter, lear’s). */
function nameWords(fullName: string): string[] {
  const folded = fold(fullName);
  const spaced = folded.split(/\s+/).filter(Boolean);
  const split = folded.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return [...spaced, ...split];
}

/** Whether a person matches the people search (an empty search matches everyone). */
export function personMatches(person: { full_name: string; email: string }, query: string): boolean {
  const typed = fold(query).trim();
  if (typed === '') return true;
  if (fold(person.email).startsWith(typed)) return true;
  const words = nameWords(person.full_name);
  return typed.split(/\s+/).every((term) => words.some((word) => word.startsWith(term)));
}

/** The people who match, in their order. */
export const filterPeople = <T extends { full_name: string; email: string }>(
  people: readonly T[],
  query: string,
): T[] => people.filter((p) => personMatches(p, query));
