import {
  NO_PEOPLE,
  anomalousPayload,
  unsupportedEvent,
  type Integration,
  type Json,
  type RealmPeople,
  type WebhookRequest,
} from '../framework.js';
import { endsWithPunctuation } from '../toolkit/python.js';
import { pyFormat, pyTruthy } from '../toolkit/pyformat.js';
import { str, strOrNone } from '../toolkit/wild.js';

/**
 * Jira (zerver/webhooks/jira): issues created, updated (assigned, commented, transitioned, fields changed) and
 * deleted, and the newer comment events, each in the topic "<key>: <summary>". Jira's wiki markup in comments is
 * turned into Markdown; the assignee is named as the organization's user with that email when there is one.
 */

const IGNORED_EVENTS = new Set([
  'attachment_created',
  'issuelink_created',
  'issuelink_deleted',
  'jira:version_released',
  'jira:worklog_updated',
  'sprint_closed',
  'sprint_started',
  'worklog_created',
  'worklog_updated',
]);

/** Zulip's get_in: the value at the path, or `fallback` when a step of it is not there. */
function getIn(payload: Json, keys: readonly string[], fallback: unknown = ''): unknown {
  let value: Json = payload;
  for (const key of keys) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !(key in value)) return fallback;
    value = value[key];
  }
  return value;
}

/** Zulip's convert_jira_markup: Jira's wiki markup as Markdown (Python's `.` is any character but \n). */
export function convertJiraMarkup(text: string, people: RealmPeople): string {
  let content = text.replace(/\*([^*]+)\*/g, '**$1**');
  content = content.replace(/\{\{([^*]+?)\}\}/g, '`$1`');
  content = content.replace(/bq\. ([^\n]*)/g, '> $1');
  content = content.replace(/\{quote\}([\s\S]*?)\{quote\}/g, '~~~ quote\n$1\n~~~');
  content = content.replace(/\{noformat\}([\s\S]*?)\{noformat\}/g, '~~~\n$1\n~~~');
  content = content.replace(/\{code[^\n]*\}([\s\S]*?)\{code\}/g, '~~~\n$1\n~~~');
  content = content.replace(/\[([^|~]+?)\]/g, '[$1]($1)');
  content = content.replace(/\[(?:([^|~]+)\|)([^\]]*)\]/g, '[$1]($2)');
  for (const [, username] of [...content.matchAll(/\[~([^\n]*?)\]/g)]) {
    const replacement = `**${people.guessFullName(username!) ?? username}**`;
    content = content.split(`[~${username}]`).join(replacement);
  }
  return content;
}

/** The `[~name]` mentions of a comment, as convertJiraMarkup looks them up. */
function mentionedNames(text: string): string[] {
  const names: string[] = [];
  convertJiraMarkup(text, { fullNameByEmail: () => null, guessFullName: (name) => (names.push(name), null) });
  return names;
}

function issueId(payload: Json): string {
  // Some ancient Jira versions post comment events without the issue: its internal number is in the comment's URL.
  if (!('issue' in payload)) return str(payload.comment.self).split('/').at(-3)!;
  return str(getIn(payload, ['issue', 'key']));
}

function issueTitle(payload: Json): string {
  if (!('issue' in payload)) return 'Upgrade Jira to get the issue title here.';
  return str(getIn(payload, ['issue', 'fields', 'summary']));
}

/** "[KEY: title](<base>/browse/KEY)", the base guessed from the issue's REST URL. */
function issueString(payload: Json, id: string | null = null, withTitle = false): string {
  const key = id ?? issueId(payload);
  const text = withTitle ? `${key}: ${issueTitle(payload)}` : key;
  const base = /^([^\n]*)\/rest\/api\/[^\n]*/.exec(str(getIn(payload, ['issue', 'self'])));
  return base ? `[${text}](${base[1]}/browse/${key})` : text;
}

function assigneeMention(email: string, people: RealmPeople): string {
  if (email === '') return '';
  return `**${people.fullNameByEmail(email) ?? email}**`;
}

const issueAuthor = (payload: Json) => str(getIn(payload, ['user', 'displayName']));

function subEventOfUpdate(payload: Json): string {
  const subEvent = 'issue_event_type_name' in payload ? str(payload.issue_event_type_name) : '';
  if (subEvent === '') {
    if (pyTruthy(payload.comment)) return 'issue_commented';
    if (pyTruthy(payload.transition)) return 'issue_transited';
  }
  return subEvent;
}

function eventType(payload: Json): string | null {
  const event = strOrNone(payload.webhookEvent);
  if (event === null && pyTruthy(payload.transition)) return 'jira:issue_updated';
  return event;
}

function changeInfo(content: string, field: string | null, from: string | null, to: string | null): string {
  let out = `${content}* Changed ${pyFormat('{}', [field])}`;
  if (from) out += ` from **${from}**`;
  if (to) out += ` to ${to}\n`;
  return out;
}

type ContentFunction = (payload: Json, people: RealmPeople) => string;

const updatedIssue: ContentFunction = (payload, people) => {
  // Reassigned, commented, reopened and resolved all arrive as "updated": find what happened.
  const id = str(getIn(payload, ['issue', 'key']));
  const issue = issueString(payload, id, true);
  const mention = assigneeMention(str(getIn(payload, ['issue', 'fields', 'assignee', 'emailAddress'], '')), people);
  const assigneeBlurb = mention !== '' ? ` (assigned to ${mention})` : '';
  const subEvent = subEventOfUpdate(payload);
  if (subEvent.includes('comment')) {
    const verb =
      subEvent === 'issue_commented'
        ? 'commented on'
        : subEvent === 'issue_comment_edited'
          ? 'edited a comment on'
          : 'deleted a comment from';
    const author =
      strOrNone(payload.webhookEvent) === 'comment_created'
        ? str(payload.comment.author.displayName)
        : issueAuthor(payload);
    const content = `${author} ${verb} ${issue}${assigneeBlurb}`;
    const comment = str(getIn(payload, ['comment', 'body']));
    if (comment) return `${content}:\n\n\`\`\` quote\n${convertJiraMarkup(comment, people)}\n\`\`\``;
    return `${content}.`;
  }
  let content = `${issueAuthor(payload)} updated ${issue}${assigneeBlurb}:\n\n`;
  const changelog = payload.changelog;
  if (pyTruthy(changelog)) {
    // The changelog says what changed.
    for (const item of changelog.items) {
      const field = strOrNone(item.field);
      const target =
        field === 'assignee' && mention !== '' ? mention : `**${pyFormat('{}', [strOrNone(item.toString)])}**`;
      const from = strOrNone(item.fromString);
      if (target || from) content = changeInfo(content, field, from, target);
    }
  } else if (subEvent === 'issue_transited') {
    const from = str(getIn(payload, ['transition', 'from_status']));
    const target = `**${str(getIn(payload, ['transition', 'to_status']))}**`;
    content = changeInfo(content, 'status', from, target);
  }
  return content;
};

const createdIssue: ContentFunction = (payload) =>
  pyFormat('{author} created {issue_string}:\n\n* **Priority**: {priority}\n* **Assignee**: {assignee}', {
    author: issueAuthor(payload),
    issue_string: issueString(payload, null, true),
    priority: str(getIn(payload, ['issue', 'fields', 'priority', 'name'])),
    assignee: str(getIn(payload, ['issue', 'fields', 'assignee', 'displayName'], 'no one')),
  });

const deletedIssue: ContentFunction = (payload) => {
  const title = issueTitle(payload);
  if (title === '') throw new TypeError('an issue without a title');
  return `${issueAuthor(payload)} deleted ${issueString(payload, null, true)}${endsWithPunctuation(title) ? '' : '.'}`;
};

/** Jira escapes "!" as "\\!" in comment bodies. */
const normalizeComment = (comment: string) => comment.split('\\!').join('!');

const commentEvent =
  (verb: string, strike = false): ContentFunction =>
  (payload) => {
    const comment = normalizeComment(str(payload.comment.body));
    const quoted = strike ? `~~${comment}~~` : comment;
    return `${str(payload.comment.author.displayName)} ${verb} ${issueString(payload, null, true)}\n\`\`\` quote\n${quoted}\n\`\`\`\n`;
  };

const CONTENT: Record<string, ContentFunction> = {
  'jira:issue_created': createdIssue,
  'jira:issue_deleted': deletedIssue,
  'jira:issue_updated': updatedIssue,
  comment_created: commentEvent('commented on'),
  comment_updated: commentEvent('updated their comment on'),
  comment_deleted: commentEvent('deleted their comment on', true),
};

/** The assignee's email and the comment's mentions: the people updatedIssue names. */
function peopleNamed(request: WebhookRequest) {
  const payload = request.json();
  const email = getIn(payload, ['issue', 'fields', 'assignee', 'emailAddress'], '');
  const body = getIn(payload, ['comment', 'body']);
  return {
    emails: typeof email === 'string' && email !== '' ? [email] : [],
    names: typeof body === 'string' ? mentionedNames(body) : [],
  };
}

export const jira: Integration = {
  name: 'jira',
  webhookName: 'Jira',
  eventTypes: Object.keys(CONTENT),
  unquoteUrlParameters: true,
  peopleNamed,
  handle(request) {
    const payload = request.json();
    const event = eventType(payload);
    if (event !== null && IGNORED_EVENTS.has(event)) return null;
    if (event === null) anomalousPayload();
    const content = CONTENT[event];
    if (content === undefined) unsupportedEvent(event);
    const topic = `${issueId(payload)}: ${issueTitle(payload)}`;
    return { topic, content: content(payload, request.people ?? NO_PEOPLE), event };
  },
};
