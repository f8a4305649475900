import { unsupportedEvent, type Integration, type Json } from '../framework.js';
import { int, str } from '../toolkit/wild.js';

/**
 * Linear (zerver/webhooks/linear): issues, sub-issues and comments created, updated and removed, in the topic
 * "Issue: <title>" ("Sub-Issue: <title>"; a comment's issue's). Labels, projects, their updates, cycles and
 * reactions post nothing (as in Zulip 11.0-dev of May 2025).
 */

const quoted = (message: string) => `\n~~~ quote\n${message}\n~~~\n`;

const IGNORED_EVENTS = new Set(['IssueLabel', 'Project', 'ProjectUpdate', 'Cycle', 'Reaction']);

function issueMessage(payload: Json, event: string): string {
  const data = payload.data;
  const type = event === 'issue' ? 'Issue' : 'Sub-Issue';
  int(data.number);
  str(data.title);
  const team = str(data.team.name);
  const action = str(payload.action);
  if (action === 'remove') return `This issue has been removed from team ${team}.`;
  const verb = action === 'create' ? 'created' : 'updated';
  let message = `[${type}](${str(payload.url)}) was ${verb} in team ${team}`;
  message += 'description' in data ? `:${quoted(str(data.description))}` : '.';
  const details: string[] = [];
  const priority = str(data.priorityLabel);
  if (priority !== 'No priority') details.push(`Priority: ${priority}`);
  if ('assignee' in data) details.push(`Assignee: ${str(data.assignee.name)}`);
  details.push(`Status: ${str(data.state.name)}`);
  return `${message}\n${details.join(', ')}.`;
}

function commentMessage(payload: Json): string {
  const data = payload.data;
  const user = str(data.user.name);
  const action = str(payload.action);
  if (action === 'remove') return `${user} has removed a comment.`;
  const verb = action === 'create' ? 'commented' : 'updated comment';
  return `${user} [${verb}](${str(payload.url)}) on issue **${str(data.issue.title)}**:${quoted(str(data.body))}`;
}

function eventType(payload: Json): string | null {
  const type = str(payload.type);
  if (type === 'Issue') return 'parentId' in payload.data ? 'sub_issue' : 'issue';
  if (type === 'Comment') return 'comment';
  if (IGNORED_EVENTS.has(type)) return null;
  // A kind of event Linear added since.
  return unsupportedEvent(`${type}:${'action' in payload ? str(payload.action) : '???'}`);
}

export const linear: Integration = {
  name: 'linear',
  webhookName: 'Linear',
  eventTypes: ['issue', 'sub_issue', 'comment'],
  handle(request) {
    const payload = request.json();
    const event = eventType(payload);
    if (event === null) return null;
    if (event === 'comment')
      return { topic: `Issue: ${str(payload.data.issue.title)}`, content: commentMessage(payload) };
    const topic = `${event === 'sub_issue' ? 'Sub-Issue' : 'Issue'}: ${str(payload.data.title)}`;
    return { topic, content: issueMessage(payload, event) };
  },
};
