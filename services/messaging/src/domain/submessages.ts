import { invalid } from '@confab/errors';
import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { accessMessage, messageAudience } from './fetch.js';
import type { Submessage } from './message-store.js';

/** Zulip's get_widget_data: `/poll question` with one option per following line, or `/todo`. */
export function widgetFor(content: string): { widget_type: string; extra_data: unknown } | null {
  const first = content.split(/\s+/, 1)[0] ?? '';
  if (first !== '/poll' && first !== '/todo') return null;
  const rest = content.slice(first.length);
  const lines = rest.split(/\r?\n/);
  if (first === '/poll') {
    const question = (lines.shift() ?? '').trim();
    const options = lines.map((l) => l.trim().replace(/^\s*[-*]?\s*/, '')).filter((o) => o.length > 0);
    return { widget_type: 'poll', extra_data: { question, options } };
  }
  const title = (lines.shift() ?? '').trim();
  const tasks = lines
    .map((l) => l.trim().replace(/^\s*[-*]?\s*/, ''))
    .filter((t) => t.length > 0)
    .map((t) => {
      const [task, ...desc] = t.split(':');
      return { task: (task ?? '').trim(), desc: desc.join(':').trim() };
    });
  return { widget_type: 'todo', extra_data: { task_list_title: title, tasks } };
}

/** The widget a message carries: the type in its first `widget` submessage. */
function widgetType(existing: readonly Submessage[]): string | null {
  const widget = existing.find((s) => s.msg_type === 'widget');
  if (!widget) return null;
  try {
    const parsed = JSON.parse(widget.content) as { widget_type?: unknown };
    return typeof parsed.widget_type === 'string' ? parsed.widget_type : null;
  } catch {
    return null;
  }
}

const isInt = (v: unknown) => typeof v === 'number' && Number.isInteger(v);
const isString = (v: unknown) => typeof v === 'string';

/** Zulip's validate_poll_data: the shape of each kind of poll update; only the author may change the question. */
function validatePoll(data: unknown, isAuthor: boolean): void {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw invalid('Invalid poll data');
  const d = data as Record<string, unknown>;
  switch (d.type) {
    case 'vote':
      if (!isString(d.key) || !isInt(d.vote) || (d.vote !== 1 && d.vote !== -1)) throw invalid('Invalid poll data');
      return;
    case 'new_option':
      if (!isInt(d.idx) || !isString(d.option)) throw invalid('Invalid poll data');
      return;
    case 'question':
      if (!isString(d.question)) throw invalid('Invalid poll data');
      if (!isAuthor) throw invalid("You can't edit a question unless you are the author.");
      return;
    default:
      throw invalid('Invalid poll data');
  }
}

/** Zulip's validate_todo_data: new tasks, strikes, and the list's title (its author only). */
function validateTodo(data: unknown, isAuthor: boolean): void {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw invalid('Invalid todo data');
  const d = data as Record<string, unknown>;
  switch (d.type) {
    case 'new_task':
      if (!isInt(d.key) || !isString(d.task) || !isString(d.desc) || typeof d.completed !== 'boolean')
        throw invalid('Invalid todo data');
      return;
    case 'strike':
      if (!isString(d.key)) throw invalid('Invalid todo data');
      return;
    case 'new_task_list_title':
      if (!isString(d.title)) throw invalid('Invalid todo data');
      if (!isAuthor) throw invalid("You can't edit the task list title unless you are the author.");
      return;
    default:
      throw invalid('Invalid todo data');
  }
}

/** The submessage's record and event, for a message whose audience is known. */
function submessageEvent(actor: Actor, submessage: Submessage, audience: readonly number[]): OutboxRecord {
  return outboxRecord(
    contracts.submessageAdded,
    { ...submessage, submessage_id: submessage.id, user_ids: [...audience] },
    { realmId: actor.realm.id, requestId: actor.requestId },
  );
}

/** POST /submessage (Zulip's process_submessage): a widget update from one of the message's readers. */
export async function addSubmessage(
  domain: Domain,
  actor: Actor,
  input: { messageId: number; msgType: string; content: string },
): Promise<void> {
  const { message } = await accessMessage(domain, actor, input.messageId);
  const existing = (await domain.submessages.forMessages([message.id])).get(message.id) ?? [];
  // The first submessage of a message must come from its sender (Zulip's verify_submessage_sender).
  if (message.senderId !== actor.user.id && !existing.some((s) => s.sender_id === message.senderId))
    throw invalid('You cannot attach a submessage to this message.');
  let data: unknown;
  try {
    data = JSON.parse(input.content);
  } catch {
    throw invalid('Invalid json for submessage');
  }
  const type = widgetType(existing);
  if (type === 'poll') validatePoll(data, message.senderId === actor.user.id);
  if (type === 'todo') validateTodo(data, message.senderId === actor.user.id);
  const audience = await messageAudience(domain, message);
  await domain.db.writeSql(actor.realm.id, async ({ submessages: unit }) => {
    const row = { message_id: message.id, sender_id: actor.user.id, msg_type: input.msgType, content: input.content };
    const id = await unit.insert(row);
    return { result: undefined, events: [submessageEvent(actor, { id, ...row }, audience)] };
  });
}

/**
 * Attaches a new message's widget (Zulip's do_widget_post_save_actions): `/poll` and `/todo` messages get their
 * widget as the first submessage, which reaches the receivers as a `submessage` event right after the message.
 */
export async function attachWidget(
  domain: Domain,
  actor: Actor,
  message: { id: number; content: string },
): Promise<void> {
  const widget = widgetFor(message.content);
  if (!widget) return;
  await domain.db.writeSql(actor.realm.id, async ({ submessages: unit }) => {
    const row = {
      message_id: message.id,
      sender_id: actor.user.id,
      msg_type: 'widget',
      content: JSON.stringify(widget),
    };
    const id = await unit.insert(row);
    return { result: undefined, events: [submessageEvent(actor, { id, ...row }, await unit.receivers(message.id))] };
  });
}
