import { invalid } from '@confab/errors';
import { eventNarrowProblem, messageMatchesNarrow, type NarrowMessage, type NarrowTerm } from '@confab/zulip';

/** A queue's narrow as /register takes it: [operator, operand] pairs, never negated (as in Zulip). */
type QueueNarrow = readonly (readonly [string, string])[];

const terms = (narrow: QueueNarrow): NarrowTerm[] => narrow.map(([operator, operand]) => ({ operator, operand }));

/** Zulip's check_narrow_for_events: the operators an event queue can filter on (libs/zulip's grammar). */
export function checkNarrowForEvents(narrow: QueueNarrow): void {
  const problem = eventNarrowProblem(terms(narrow));
  if (problem !== null) throw invalid(problem);
}

/** The parts of a message event a narrow looks at. */
export type NarrowedMessage = NarrowMessage;

/** Zulip's build_narrow_predicate: libs/zulip's predicate in its event-queue form. */
export function matchesNarrow(narrow: QueueNarrow, message: NarrowedMessage, flags: readonly string[]): boolean {
  return narrow.length === 0 || messageMatchesNarrow(terms(narrow), message, flags, { eventQueue: true });
}
