/**
 * A poll's state from its message's submessages (the protocol of Zulip's poll widget): the first `widget`
 * submessage carries the question and the canned options; later ones add options, vote and unvote, and (from the
 * poll's author only) change the question. Pure: the widget renders what `pollOf` returns and sends what
 * `voteData` / `newOptionData` / `questionData` build.
 */

/** A submessage as messages and `submessage` events carry it. */
export interface Submessage {
  id?: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export interface PollOption {
  /** `canned,<i>` for the options the poll was sent with, `<sender>,<idx>` for added ones. */
  key: string;
  option: string;
  /** Who voted for it, in vote order. */
  voters: number[];
}

export interface Poll {
  question: string;
  options: PollOption[];
  /** The poll message's sender: the only one who may change the question. */
  authorId: number;
}

/** Each user may add at most this many options (Zulip's MAX_IDX). */
const MAX_IDX = 1000;

/** A submessage's JSON object, or null when it is none. */
export function parse(content: string): Record<string, unknown> | null {
  try {
    const data: unknown = JSON.parse(content);
    return typeof data === 'object' && data !== null && !Array.isArray(data) ? (data as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The widget type of a message's submessages ("poll", "todo"), or null when it carries none. */
export function widgetTypeOf(submessages: readonly Submessage[] | undefined): string | null {
  const first = submessages?.[0];
  if (!first || first.msg_type !== 'widget') return null;
  const data = parse(first.content);
  return typeof data?.widget_type === 'string' ? data.widget_type : null;
}

/** The poll a message's submessages describe, after every update in order; null if it is not a poll. */
export function pollOf(authorId: number, submessages: readonly Submessage[] | undefined): Poll | null {
  if (!submessages || widgetTypeOf(submessages) !== 'poll') return null;
  const extra = (parse(submessages[0].content)?.extra_data ?? {}) as Record<string, unknown>;
  const poll: Poll = { question: typeof extra.question === 'string' ? extra.question : '', options: [], authorId };
  const byKey = new Map<string, PollOption>();
  const add = (key: string, option: string) => {
    // The /poll syntax allows duplicates; they are shown once.
    if (byKey.has(key) || poll.options.some((o) => o.option === option)) return;
    const entry = { key, option, voters: [] };
    byKey.set(key, entry);
    poll.options.push(entry);
  };
  const canned = Array.isArray(extra.options) ? extra.options : [];
  canned.forEach((option, i) => {
    if (typeof option === 'string') add(`canned,${i}`, option);
  });
  for (const sub of submessages.slice(1)) {
    if (sub.msg_type !== 'widget') continue;
    const data = parse(sub.content);
    if (!data) continue;
    if (data.type === 'new_option') {
      const { idx, option } = data;
      if (typeof idx !== 'number' || typeof option !== 'string' || idx < 0 || idx > MAX_IDX) continue;
      add(`${sub.sender_id},${idx}`, option);
    } else if (data.type === 'vote') {
      const target = typeof data.key === 'string' ? byKey.get(data.key) : undefined;
      if (!target) continue;
      const others = target.voters.filter((v) => v !== sub.sender_id);
      if (data.vote === 1) target.voters = [...others, sub.sender_id];
      else if (data.vote === -1) target.voters = others;
    } else if (data.type === 'question') {
      if (sub.sender_id === authorId && typeof data.question === 'string') poll.question = data.question;
    }
  }
  return poll;
}

/** The vote that toggles `me`'s vote on an option. */
export function voteData(poll: Poll, key: string, me: number): { type: 'vote'; key: string; vote: 1 | -1 } {
  const voted = poll.options.find((o) => o.key === key)?.voters.includes(me) ?? false;
  return { type: 'vote', key, vote: voted ? -1 : 1 };
}

/** A new option from `me`, numbered after `me`'s earlier ones (from any device); null if blank or present. */
export function newOptionData(
  poll: Poll,
  me: number,
  text: string,
): { type: 'new_option'; idx: number; option: string } | null {
  const option = text.trim();
  if (!option || poll.options.some((o) => o.option === option)) return null;
  const mine = poll.options.filter((o) => o.key.startsWith(`${me},`)).map((o) => Number(o.key.slice(`${me},`.length)));
  return { type: 'new_option', idx: Math.max(0, ...mine) + 1, option };
}

/** A new question, for the poll's author only (null for anyone else, or a blank question). */
export function questionData(poll: Poll, me: number, text: string): { type: 'question'; question: string } | null {
  const question = text.trim();
  return me === poll.authorId && question ? { type: 'question', question } : null;
}
