import type { Integration, Json } from '../framework.js';
import { pyFormat, pySorted, pyTruthy } from '../toolkit/pyformat.js';
import { str as asString } from '../toolkit/wild.js';

/**
 * Taiga (zerver/webhooks/taiga): one message per webhook listing, sorted, a line for each change of the epic, user
 * story, task, issue or sprint; a changed property's new value in bold, otherwise the item's subject. The topic is
 * the sprint's name, or "General".
 */

const TEMPLATES: Record<string, Record<string, string>> = {
  epic: {
    create: '{user} created epic {subject}.',
    set_assigned_to: '{user} assigned epic {subject} to {new}.',
    unset_assigned_to: '{user} unassigned epic {subject}.',
    changed_assigned_to: '{user} reassigned epic {subject} from {old} to {new}.',
    blocked: '{user} blocked epic {subject}.',
    unblocked: '{user} unblocked epic {subject}.',
    changed_status: '{user} changed status of epic {subject} from {old} to {new}.',
    renamed: '{user} renamed epic from **{old}** to **{new}**.',
    description_diff: '{user} updated description of epic {subject}.',
    commented: '{user} commented on epic {subject}.',
    delete: '{user} deleted epic {subject}.',
  },
  relateduserstory: {
    create: '{user} added a related user story {userstory_subject} to the epic {epic_subject}.',
    delete: '{user} removed a related user story {userstory_subject} from the epic {epic_subject}.',
  },
  userstory: {
    create: '{user} created user story {subject}.',
    set_assigned_to: '{user} assigned user story {subject} to {new}.',
    unset_assigned_to: '{user} unassigned user story {subject}.',
    changed_assigned_to: '{user} reassigned user story {subject} from {old} to {new}.',
    points: '{user} changed estimation of user story {subject}.',
    blocked: '{user} blocked user story {subject}.',
    unblocked: '{user} unblocked user story {subject}.',
    set_milestone: '{user} added user story {subject} to sprint {new}.',
    unset_milestone: '{user} removed user story {subject} from sprint {old}.',
    changed_milestone: '{user} changed sprint of user story {subject} from {old} to {new}.',
    changed_status: '{user} changed status of user story {subject} from {old} to {new}.',
    closed: '{user} closed user story {subject}.',
    reopened: '{user} reopened user story {subject}.',
    renamed: '{user} renamed user story from {old} to **{new}**.',
    description_diff: '{user} updated description of user story {subject}.',
    commented: '{user} commented on user story {subject}.',
    delete: '{user} deleted user story {subject}.',
    due_date: '{user} changed due date of user story {subject} from {old} to {new}.',
    set_due_date: '{user} set due date of user story {subject} to {new}.',
  },
  milestone: {
    create: '{user} created sprint {subject}.',
    renamed: '{user} renamed sprint from {old} to **{new}**.',
    estimated_start: '{user} changed estimated start of sprint {subject} from {old} to {new}.',
    estimated_finish: '{user} changed estimated finish of sprint {subject} from {old} to {new}.',
    set_estimated_start: '{user} changed estimated start of sprint {subject} to {new}.',
    set_estimated_finish: '{user} set estimated finish of sprint {subject} to {new}.',
    delete: '{user} deleted sprint {subject}.',
  },
  task: {
    create: '{user} created task {subject}.',
    set_assigned_to: '{user} assigned task {subject} to {new}.',
    unset_assigned_to: '{user} unassigned task {subject}.',
    changed_assigned_to: '{user} reassigned task {subject} from {old} to {new}.',
    blocked: '{user} blocked task {subject}.',
    unblocked: '{user} unblocked task {subject}.',
    changed_status: '{user} changed status of task {subject} from {old} to {new}.',
    renamed: '{user} renamed task {old} to **{new}**.',
    description_diff: '{user} updated description of task {subject}.',
    set_milestone: '{user} added task {subject} to sprint {new}.',
    commented: '{user} commented on task {subject}.',
    delete: '{user} deleted task {subject}.',
    changed_us: '{user} moved task {subject} from user story {old} to {new}.',
    due_date: '{user} changed due date of task {subject} from {old} to {new}.',
    set_due_date: '{user} set due date of task {subject} to {new}.',
  },
  issue: {
    create: '{user} created issue {subject}.',
    set_assigned_to: '{user} assigned issue {subject} to {new}.',
    unset_assigned_to: '{user} unassigned issue {subject}.',
    changed_assigned_to: '{user} reassigned issue {subject} from {old} to {new}.',
    set_milestone: '{user} added issue {subject} to sprint {new}.',
    unset_milestone: '{user} detached issue {subject} from sprint {old}.',
    changed_priority: '{user} changed priority of issue {subject} from {old} to {new}.',
    changed_severity: '{user} changed severity of issue {subject} from {old} to {new}.',
    changed_status: '{user} changed status of issue {subject} from {old} to {new}.',
    changed_type: '{user} changed type of issue {subject} from {old} to {new}.',
    renamed: '{user} renamed issue {old} to **{new}**.',
    description_diff: '{user} updated description of issue {subject}.',
    commented: '{user} commented on issue {subject}.',
    delete: '{user} deleted issue {subject}.',
    due_date: '{user} changed due date of issue {subject} from {old} to {new}.',
    set_due_date: '{user} set due date of issue {subject} to {new}.',
    blocked: '{user} blocked issue {subject}.',
    unblocked: '{user} unblocked issue {subject}.',
  },
  webhook_test: {
    test: '{user} triggered a test of the Taiga integration.',
  },
};

interface ParsedEvent {
  type: string;
  event: string;
  values: Record<string, unknown>;
}

/** `[name](link)` when the item has a link, else `**name**`. */
function linked(name: string, item: Json): string {
  return 'permalink' in item ? `[${name}](${asString(item.permalink)})` : `**${name}**`;
}

function displayUser(message: Json): string {
  return `[${asString(message.by.full_name)}](${asString(message.by.permalink)})`;
}

function subject(message: Json): string {
  const data = message.data;
  return linked(pyTruthy(data.subject) ? asString(data.subject) : asString(data.name), data);
}

function oldAndNew(change: string, message: Json): [unknown, unknown] {
  const diff = message.change.diff[change];
  return [diff.from ?? null, diff.to ?? null];
}

function parseChange(change: string, message: Json): ParsedEvent | null {
  const values: Record<string, unknown> = { user: displayUser(message), subject: subject(message) };
  let event: string;
  if (change === 'description_diff' || change === 'points') event = change;
  else if (change === 'milestone' || change === 'assigned_to') {
    const [from, to] = oldAndNew(change, message);
    if (!pyTruthy(from)) {
      event = `set_${change}`;
      values.new = to;
    } else if (!pyTruthy(to)) {
      event = `unset_${change}`;
      values.old = from;
    } else {
      event = `changed_${change}`;
      Object.assign(values, { old: from, new: to });
    }
  } else if (change === 'is_blocked') {
    event = message.change.diff.is_blocked.to === true ? 'blocked' : 'unblocked';
  } else if (change === 'is_closed') {
    event = message.change.diff.is_closed.to === true ? 'closed' : 'reopened';
  } else if (change === 'user_story') {
    const [from, to] = oldAndNew(change, message);
    event = 'changed_us';
    Object.assign(values, { old: from, new: to });
  } else if (change === 'subject' || change === 'name') {
    const [from, to] = oldAndNew(change, message);
    event = 'renamed';
    Object.assign(values, { old: from, new: to });
  } else if (change === 'estimated_finish' || change === 'estimated_start' || change === 'due_date') {
    const [from, to] = oldAndNew(change, message);
    if (!pyTruthy(from)) {
      event = `set_${change}`;
      values.new = to;
    } else if (from !== to) {
      event = change;
      Object.assign(values, { old: from, new: to });
    } else return null; // the date did not change
  } else if (['priority', 'severity', 'type', 'status'].includes(change)) {
    const [from, to] = oldAndNew(change, message);
    event = `changed_${change}`;
    Object.assign(values, { old: from, new: to });
  } else return null; // a change Zulip does not post
  return { type: asString(message.type), event, values };
}

function parseCreateOrDelete(message: Json): ParsedEvent {
  const type = asString(message.type);
  const event = asString(message.action);
  if (type === 'relateduserstory') {
    return {
      type,
      event,
      values: {
        user: displayUser(message),
        epic_subject: linked(asString(message.data.epic.subject), message.data.epic),
        userstory_subject: linked(asString(message.data.user_story.subject), message.data.user_story),
      },
    };
  }
  return { type, event, values: { user: displayUser(message), subject: subject(message) } };
}

function parseMessage(message: Json): ParsedEvent[] {
  const action = asString(message.action);
  const events: ParsedEvent[] = [];
  if (action === 'create' || action === 'delete') events.push(parseCreateOrDelete(message));
  else if (action === 'change') {
    const diff = message.change.diff;
    if (pyTruthy(diff)) {
      for (const change of Object.keys(diff)) {
        const parsed = parseChange(change, message);
        if (parsed) events.push(parsed);
      }
    }
    if (asString(message.change.comment)) {
      events.push({
        type: asString(message.type),
        event: 'commented',
        values: { user: displayUser(message), subject: subject(message) },
      });
    }
  } else if (action === 'test') {
    events.push({ type: 'webhook_test', event: 'test', values: { user: displayUser(message) } });
  }
  return events;
}

function render(event: ParsedEvent): string {
  const template = TEMPLATES[event.type]?.[event.event];
  if (template === undefined) throw new TypeError(`no template for ${event.type} ${event.event}`);
  return pyFormat(template, event.values);
}

export const taiga: Integration = {
  name: 'taiga',
  webhookName: 'Taiga',
  handle(request) {
    const message = request.json();
    const content = pySorted(parseMessage(message).map((event) => `${render(event)}\n`)).join('');
    const milestone = message.data.milestone;
    const topic = pyTruthy(milestone) && 'name' in milestone ? asString(milestone.name) : 'General';
    return { topic, content };
  },
};
