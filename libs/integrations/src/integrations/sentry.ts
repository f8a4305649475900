import { unsupportedEvent, type Integration, type Json } from '../framework.js';
import { pyTruthy } from '../toolkit/pyformat.js';
import { pyStr } from '../toolkit/python.js';
import { str } from '../toolkit/wild.js';

/**
 * Sentry (zerver/webhooks/sentry): events (exceptions with the frame that raised them, and messages) and issues
 * (created, resolved, assigned, ignored) from Sentry's internal integration, the same events from its plain webhook
 * (transformed to the integration's shape), and the deprecated plugin's payload. The topic is the event's title.
 */

// Sentry's platform names as the code block's language (Pygments lexers).
const SYNTAX_HIGHLIGHT_AS: Record<string, string> = {
  go: 'go',
  java: 'java',
  javascript: 'javascript',
  node: 'javascript',
  python: 'python3',
  ruby: 'ruby',
};

/** The heuristic Zulip uses to recognize Sentry's sample event (an old SDK version that is still accepted). */
function isSampleEvent(event: Json): boolean {
  return event.title === 'This is an example Python exception';
}

/** Source lines indented for the traceback block; empty lines stay empty. */
function tracebackLines(lines: unknown): string {
  if (lines === null || lines === undefined) return '';
  return (lines as unknown[]).map((line) => (line === '' ? '\n' : `     ${str(line)}\n`)).join('');
}

/** "2020-04-28T13:56:05.123Z" as "2020-04-28 13:56:05". */
const shortDatetime = (value: unknown): string => str(value).split('.')[0]!.replace('T', ' ');

function eventMessage(event: Json): [string, string] {
  const title = pyStr(event.title);
  const platform = event.platform;
  const syntax = (typeof platform === 'string' && SYNTAX_HIGHLIGHT_AS[platform]) || '';
  // The deprecated Raven SDKs for Python are not supported (but Sentry's sample event still uses that version).
  if (platform === 'python' && parseInt(pyStr(event.version), 10) < 7 && !isSampleEvent(event)) {
    unsupportedEvent('Raven SDK');
  }
  const head = (kind: string) =>
    `\n**${kind}:** [${title}](${pyStr(event.web_url)})\n\`\`\`quote\n**level:** ${pyStr(event.level)}\n` +
    `**timestamp:** ${shortDatetime(event.datetime)}\n`;

  if ('exception' in event) {
    const filename: unknown = event.metadata.filename ?? null;
    let stacktrace: Json = null;
    for (const value of [...event.exception.values].reverse()) {
      if (typeof value === 'object' && value !== null && 'stacktrace' in value) {
        stacktrace = value.stacktrace;
        break;
      }
    }
    if (pyTruthy(stacktrace) && pyTruthy(filename)) {
      const frame = [...stacktrace.frames].reverse().find((f: Json) => (f.filename ?? null) === filename);
      if (frame && frame.context_line !== undefined && frame.context_line !== null) {
        const body =
          head('New exception') +
          `**filename:** ${pyStr(filename)}\n\`\`\`\n\nTraceback:\n\`\`\`${syntax}\n` +
          `${tracebackLines(frame.pre_context)}---> ${str(frame.context_line)}\n${tracebackLines(frame.post_context)}` +
          '```\n';
        return [title, body];
      }
    }
    return [title, head('New exception') + `**filename:** ${pyStr(filename)}\n\`\`\`\n`];
  }
  if ('logentry' in event) return [title, head('New message event') + '```\n'];
  return unsupportedEvent('unknown-event type');
}

function issueMessage(action: unknown, issue: Json, actor: Json): [string, string] {
  const title = pyStr(issue.title);
  let assignee = 'No one';
  if (pyTruthy(issue.assignedTo)) {
    assignee = issue.assignedTo.type === 'team' ? `team ${pyStr(issue.assignedTo.name)}` : pyStr(issue.assignedTo.name);
  }
  switch (action) {
    case 'created':
      return [
        title,
        `\n**New issue created:** ${title}\n\`\`\`quote\n**level:** ${pyStr(issue.level)}\n` +
          `**timestamp:** ${shortDatetime(issue.lastSeen)}\n**assignee:** ${assignee}\n\`\`\`\n`,
      ];
    case 'resolved':
      return [title, `\nIssue **${title}** was marked as resolved by **${pyStr(actor.name)}**.\n`];
    case 'assigned':
      return [title, `\nIssue **${title}** has now been assigned to **${assignee}** by **${pyStr(actor.name)}**.\n`];
    case 'ignored':
      return [title, `\nIssue **${title}** was ignored by **${pyStr(actor.name)}**.\n`];
    default:
      return unsupportedEvent('unknown-issue-action type');
  }
}

/**
 * Sentry's plain webhook sends the event without the integration's `data` wrapper, web link and datetime: they are
 * made from the issue's URL and the event's timestamp. Null when it is the deprecated payload (no event id).
 */
function fromPlainWebhook(payload: Json): Json {
  const event = payload.event ?? {};
  const eventId = event.event_id;
  if (!pyTruthy(eventId)) return null;
  event.web_url = new URL(`events/${pyStr(eventId)}/`, str(payload.url)).href;
  // Zulip's event.get("timestamp", event["received"]) reads "received" first, whether or not it is used.
  if (!('received' in event)) throw new TypeError('an event without its received time');
  const timestamp = 'timestamp' in event ? event.timestamp : event.received;
  if (typeof timestamp !== 'number') throw new TypeError('a timestamp that is not a number');
  // Python's isoformat(timespec="microseconds") of the UTC datetime; only the part before "." is shown.
  event.datetime = new Date(Math.floor(timestamp) * 1000).toISOString().replace(/\.\d+Z$/, '.000000+00:00');
  return payload;
}

export const sentry: Integration = {
  name: 'sentry',
  webhookName: 'Sentry',
  handle(request) {
    const payload = request.json();
    let data = payload.data ?? null;
    if (data === null) data = fromPlainWebhook(payload);
    let topic: string;
    let content: string;
    if (pyTruthy(data)) {
      if ('event' in data) [topic, content] = eventMessage(data.event);
      else if ('issue' in data) [topic, content] = issueMessage(payload.action, data.issue, payload.actor);
      else
        return unsupportedEvent(
          `[${Object.keys(data)
            .map((k) => `'${k}'`)
            .join(', ')}]`,
        );
    } else {
      topic = pyStr(payload.project_name);
      content =
        `\nNew [issue](${pyStr(payload.url)}) (level: ${str(payload.level).toUpperCase()}):\n\n` +
        `\`\`\` quote\n${pyStr(payload.message)}\n\`\`\`\n`;
    }
    return { topic, content };
  },
};
