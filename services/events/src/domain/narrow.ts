import { invalid } from '@confab/errors';
import { isResolvedTopic } from '@confab/zulip';

const CHANNEL_OPERATORS = ['channel', 'stream'];
const SUPPORTED = [...CHANNEL_OPERATORS, 'topic', 'exact-topic', 'sender', 'is'];

/** Zulip's check_narrow_for_events: the operators an event queue can filter on. */
export function checkNarrowForEvents(narrow: readonly (readonly [string, string])[]): void {
  for (const [operator, operand] of narrow) {
    if (!SUPPORTED.includes(operator)) throw invalid(`Operator ${operator} not supported.`);
    if (operator === 'is' && operand === 'followed') throw invalid(`Operand ${operand} not supported.`);
  }
}

/** The parts of a message event a narrow looks at. */
export interface NarrowedMessage {
  type: string;
  display_recipient: unknown;
  subject: string;
  sender_email: string;
}

function satisfies(operator: string, operand: string, message: NarrowedMessage, flags: readonly string[]): boolean {
  const isStream = message.type === 'stream';
  if (CHANNEL_OPERATORS.includes(operator)) {
    return isStream && typeof message.display_recipient === 'string'
      ? operand.toLowerCase() === message.display_recipient.toLowerCase()
      : false;
  }
  switch (operator) {
    case 'topic': {
      if (!isStream) return false;
      const topic = message.subject.toLowerCase();
      const wanted = operand.toLowerCase();
      return wanted === topic || topic.split(/\s+/).includes(wanted);
    }
    case 'exact-topic':
      return isStream && operand === message.subject;
    case 'sender':
      return operand.toLowerCase() === message.sender_email.toLowerCase();
    case 'is':
      switch (operand) {
        case 'dm':
        case 'private':
          return message.type === 'private';
        case 'starred':
          return flags.includes('starred');
        case 'unread':
          return !flags.includes('read');
        case 'alerted':
        case 'mentioned':
          return flags.includes('mentioned');
        case 'resolved':
          return isStream && isResolvedTopic(message.subject);
        default:
          return true;
      }
    default:
      return true;
  }
}

/** Zulip's build_narrow_predicate: every term must hold. */
export function matchesNarrow(
  narrow: readonly (readonly [string, string])[],
  message: NarrowedMessage,
  flags: readonly string[],
): boolean {
  return narrow.every(([operator, operand]) => satisfies(operator, operand, message, flags));
}
