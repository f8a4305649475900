/**
 * Zulip's narrows, once: the grammar (terms, operators and their synonyms, the operands of `is:` and `has:`) and
 * the predicate that decides whether one message is in a narrow, as Zulip keeps narrow_predicate.py beside the SQL
 * of narrow.py. Messaging keeps its SQL translation of the same grammar; the events service filters a queue's
 * messages with the predicate, and the web client decides with it whether a live message belongs to the view.
 */
import { isResolvedTopic } from './topics.js';

export type NarrowOperand = string | number | readonly number[] | readonly string[];

/** One term of a narrow (GET /messages' `narrow`, a queue's `narrow`, a view of the web client). */
export interface NarrowTerm {
  operator: string;
  operand: NarrowOperand;
  negated?: boolean;
}

/** Zulip's synonyms, folded to the current names. */
const SYNONYMS: Readonly<Record<string, string>> = {
  stream: 'channel',
  streams: 'channels',
  subject: 'topic',
  'pm-with': 'dm',
  from: 'sender',
  'group-pm-with': 'dm-including',
};

export const canonicalOperator = (operator: string): string => SYNONYMS[operator] ?? operator;

/** The operators GET /messages takes (after canonicalOperator); `near`, `with` and `in` only place the view. */
export const NARROW_OPERATORS = [
  'channel',
  'channels',
  'topic',
  'sender',
  'dm',
  'dm-including',
  'is',
  'has',
  'id',
  'search',
  'near',
  'with',
  'in',
] as const;

export const IS_OPERANDS = ['dm', 'private', 'starred', 'mentioned', 'alerted', 'unread', 'resolved'] as const;
export const HAS_OPERANDS = ['link', 'image', 'attachment', 'reaction'] as const;

/** Operators that place the view (an anchor, a channel to open) without filtering. */
const PLACING = new Set(['near', 'with', 'in']);

/** Zulip's check_narrow_for_events: what an event queue's narrow may use. */
const EVENT_OPERATORS = new Set(['channel', 'stream', 'topic', 'exact-topic', 'sender', 'is']);

/** Why an event queue cannot filter on this narrow (Zulip's texts), or null when it can. */
export function eventNarrowProblem(narrow: readonly NarrowTerm[]): string | null {
  for (const { operator, operand } of narrow) {
    if (!EVENT_OPERATORS.has(operator)) return `Operator ${operator} not supported.`;
    if (operator === 'is' && operand === 'followed') return `Operand ${String(operand)} not supported.`;
  }
  return null;
}

/** The parts of a message (a message dict or a message record) a narrow looks at. */
export interface NarrowMessage {
  id?: number;
  type: string;
  stream_id?: number;
  /** The channel's name, or the direct-message participants. */
  display_recipient: string | readonly { id: number; email?: string }[];
  subject: string;
  sender_id?: number;
  sender_email?: string;
  reactions?: readonly unknown[];
}

export interface PredicateOptions {
  /** The user whose narrow it is (a `dm` narrow names the others; the user is always a participant). */
  self?: number;
  /**
   * Zulip's build_narrow_predicate for event queues (narrow_predicate.py), which differs from GET /messages on
   * purpose: `topic` also matches one word of the topic, `is:mentioned` and `is:alerted` both mean the `mentioned`
   * flag, and an operator it does not know holds.
   */
  eventQueue?: boolean;
}

/** The flags that make `is:mentioned` (MENTION_BITS, and the deprecated `wildcard_mentioned`). */
const MENTION_FLAGS = new Set([
  'mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned',
  'group_mentioned',
  'wildcard_mentioned',
]);

/** Whether the predicate decides every term of the narrow (a search, `channels:` and most `has:` need the server). */
export function canMatchLocally(terms: readonly NarrowTerm[]): boolean {
  return terms.every(({ operator, operand }) => {
    const op = canonicalOperator(operator);
    if (op === 'is') return (IS_OPERANDS as readonly unknown[]).includes(operand);
    if (op === 'has') return operand === 'reaction';
    return ['channel', 'topic', 'sender', 'dm', 'dm-including', 'id', ...PLACING].includes(op);
  });
}

const lower = (text: string) => text.toLowerCase();

/** A list operand (ids or emails), from an array or a comma-separated string. */
function listOperand(operand: NarrowOperand): (number | string)[] {
  if (typeof operand === 'number') return [operand];
  if (typeof operand === 'string') return operand.split(',').map((part) => lower(part.trim()));
  return operand.map((item) => (typeof item === 'string' ? lower(item) : item));
}

/** The participants of a direct message that `dm` compares: by id, or by email when the operand names emails. */
function participants(message: NarrowMessage, byEmail: boolean): Set<number | string> | null {
  if (typeof message.display_recipient === 'string') return null;
  return new Set(message.display_recipient.map((r) => (byEmail ? lower(r.email ?? '') : r.id)));
}

function satisfies(term: NarrowTerm, message: NarrowMessage, flags: readonly string[], options: PredicateOptions) {
  const { operand } = term;
  const isStream = message.type === 'stream';
  switch (canonicalOperator(term.operator)) {
    case 'channel':
      if (!isStream) return false;
      if (typeof operand === 'number') return message.stream_id === operand;
      return typeof operand === 'string' && typeof message.display_recipient === 'string'
        ? lower(operand) === lower(message.display_recipient)
        : false;
    case 'topic': {
      if (!isStream) return false;
      const topic = lower(message.subject);
      const wanted = lower(String(operand));
      return wanted === topic || (options.eventQueue === true && topic.split(/\s+/).includes(wanted));
    }
    case 'exact-topic':
      return isStream && operand === message.subject;
    case 'sender':
      if (typeof operand === 'number') return message.sender_id === operand;
      return lower(String(operand)) === lower(message.sender_email ?? '');
    case 'dm': {
      if (isStream) return false;
      const wanted = listOperand(operand);
      const byEmail = wanted.some((w) => typeof w === 'string');
      const have = participants(message, byEmail);
      if (!have) return false;
      const want = new Set(wanted);
      // The user is a participant of every conversation of theirs, named or not.
      if (options.self !== undefined && !byEmail) want.add(options.self);
      if (options.self !== undefined && byEmail && Array.isArray(message.display_recipient)) {
        const own = message.display_recipient.find((r) => r.id === options.self);
        if (own?.email) want.add(lower(own.email));
      }
      return want.size === have.size && [...want].every((w) => have.has(w));
    }
    case 'dm-including': {
      if (isStream) return false;
      const [wanted] = listOperand(operand);
      const have = participants(message, typeof wanted === 'string');
      return have !== null && wanted !== undefined && have.has(wanted);
    }
    case 'id':
      return message.id === Number(operand);
    case 'is':
      switch (operand) {
        case 'dm':
        case 'private':
          return message.type === 'private';
        case 'starred':
          return flags.includes('starred');
        case 'unread':
          return !flags.includes('read');
        case 'mentioned':
          return options.eventQueue ? flags.includes('mentioned') : flags.some((f) => MENTION_FLAGS.has(f));
        case 'alerted':
          return flags.includes(options.eventQueue ? 'mentioned' : 'has_alert_word');
        case 'resolved':
          return isStream && isResolvedTopic(message.subject);
        default:
          return true;
      }
    case 'has':
      return operand === 'reaction' ? (message.reactions?.length ?? 0) > 0 : true;
    default:
      // `near`, `with` and `in` place the view; what the predicate cannot decide is left to canMatchLocally.
      return true;
  }
}

/** Zulip's narrow predicate: every term holds (a negated one must not). */
export function messageMatchesNarrow(
  terms: readonly NarrowTerm[],
  message: NarrowMessage,
  flags: readonly string[],
  options: PredicateOptions = {},
): boolean {
  return terms.every((term) => {
    if (PLACING.has(term.operator)) return true;
    return satisfies(term, message, flags, options) !== (term.negated === true);
  });
}
