import type { Outcome } from '../src/index.js';

/**
 * The messages of an outcome as messaging stores them (its normalization: trailing whitespace and leading blank
 * lines go, as Zulip's do), for the monitoring, CI and operations specs whose templates start with a newline.
 */
export function posted(outcome: Outcome): { topic: string; content: string }[] {
  if (outcome.kind !== 'messages') throw new Error(`expected messages, got ${JSON.stringify(outcome)}`);
  return outcome.messages.map((m) => ({ topic: m.topic, content: m.content.trimEnd().replace(/^\n+/, '') }));
}

/** The one message of an outcome, as stored. */
export function only(outcome: Outcome): { topic: string; content: string } {
  const messages = posted(outcome);
  if (messages.length !== 1) throw new Error(`expected one message, got ${messages.length}`);
  return messages[0]!;
}

/** The error an outcome answers: its status, code and message. */
export function answered(outcome: Outcome): { status: number; code: string; msg: string } {
  if (outcome.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(outcome)}`);
  return { status: outcome.error.status, code: outcome.error.code, msg: outcome.error.message };
}
