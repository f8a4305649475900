import { unsupportedEvent, type Integration, type Json } from '../framework.js';
import { endsWithPunctuation } from '../toolkit/python.js';
import { pyFormat } from '../toolkit/pyformat.js';
import { str } from '../toolkit/wild.js';

/**
 * Basecamp 3 (zerver/webhooks/basecamp): documents, questions and their answers, messages, to-do lists, to-dos and
 * comments, "{user} {verb} the {kind} [title](url)", in the topic of the project's name.
 */

const DOCUMENT_TEMPLATE = '{user_name} {verb} the document [{title}]({url})';
const QUESTION_TEMPLATE = '{user_name} {verb} the question [{title}]({url})';
const QUESTIONS_ANSWER_TEMPLATE =
  '{user_name} {verb} the [answer]({answer_url}) of the question [{question_title}]({question_url})';
const COMMENT_TEMPLATE = '{user_name} {verb} the [comment]({answer_url}) of the task [{task_title}]({task_url})';
const MESSAGE_TEMPLATE = '{user_name} {verb} the message [{title}]({url})';
const TODO_LIST_TEMPLATE = '{user_name} {verb} the todo list [{title}]({url})';
const TODO_TEMPLATE = '{user_name} {verb} the todo task [{title}]({url})';

const SUPPORT_EVENTS = new Set([
  'document_active',
  'document_created',
  'document_archived',
  'document_unarchived',
  'document_publicized',
  'document_title_changed',
  'document_content_changed',
  'document_trashed',
  'question_archived',
  'question_created',
  'question_trashed',
  'question_unarchived',
  'question_answer_archived',
  'question_answer_content_changed',
  'question_answer_created',
  'question_answer_trashed',
  'question_answer_unarchived',
  'message_archived',
  'message_content_changed',
  'message_created',
  'message_subject_changed',
  'message_trashed',
  'message_unarchived',
  'comment_created',
  'todolist_created',
  'todolist_description_changed',
  'todolist_name_changed',
  'todo_assignment_changed',
  'todo_completed',
  'todo_uncompleted',
  'todo_created',
  'todo_due_on_changed',
]);

/** "active" is "activated", "title_changed" is "changed title of", the rest as they are. */
function verbOf(event: string, prefix: string): string {
  const verb = event.split(prefix).join('');
  if (verb === 'active') return 'activated';
  const changed = /^([A-z]*)_changed/.exec(verb);
  return changed ? `changed ${changed[1]} of` : verb;
}

const punctuated = (template: string, title: string) => (endsWithPunctuation(title) ? template : `${template}.`);

function genericBody(event: string, payload: Json, prefix: string, template: string): string {
  const title = str(payload.recording.title);
  return pyFormat(punctuated(template, title), {
    user_name: str(payload.creator.name),
    verb: verbOf(event, prefix),
    title,
    url: str(payload.recording.app_url),
  });
}

function parentBody(event: string, payload: Json, prefix: string, template: string, keys: [string, string]) {
  const parent = payload.recording.parent;
  const title = str(parent.title);
  return pyFormat(punctuated(template, title), {
    user_name: str(payload.creator.name),
    verb: verbOf(event, prefix),
    answer_url: str(payload.recording.app_url),
    [keys[0]]: title,
    [keys[1]]: str(parent.app_url),
  });
}

/** The kinds by prefix, in the order Zulip tries them ("question_answer_" before "question_"). */
const KINDS: [string, string, (event: string, payload: Json) => string][] = [
  ['document_', 'document', (e, p) => genericBody(e, p, 'document_', DOCUMENT_TEMPLATE)],
  [
    'question_answer_',
    'question_answer',
    (e, p) => parentBody(e, p, 'question_answer_', QUESTIONS_ANSWER_TEMPLATE, ['question_title', 'question_url']),
  ],
  ['question_', 'question', (e, p) => genericBody(e, p, 'question_', QUESTION_TEMPLATE)],
  ['message_', 'message', (e, p) => genericBody(e, p, 'message_', MESSAGE_TEMPLATE)],
  ['todolist_', 'todolist', (e, p) => genericBody(e, p, 'todolist_', TODO_LIST_TEMPLATE)],
  ['todo_', 'todo', (e, p) => genericBody(e, p, 'todo_', TODO_TEMPLATE)],
  ['comment_', 'comment', (e, p) => parentBody(e, p, 'comment_', COMMENT_TEMPLATE, ['task_title', 'task_url'])],
];

export const basecamp: Integration = {
  name: 'basecamp',
  webhookName: 'Basecamp',
  eventTypes: ['document', 'question_answer', 'question', 'message', 'todolist', 'todo', 'comment'],
  handle(request) {
    const payload = request.json();
    const kind = str(payload.kind);
    if (!SUPPORT_EVENTS.has(kind)) unsupportedEvent(kind);
    const topic = str(payload.recording.bucket.name);
    const match = KINDS.find(([prefix]) => kind.startsWith(prefix));
    if (!match) return unsupportedEvent(kind);
    return { topic, content: match[2](kind, payload), event: match[1] };
  },
};
