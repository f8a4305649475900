import { sentry } from '../src/integrations/sentry.js';
import { runWebhook } from '../src/index.js';
import { answered, only } from './ops-support.js';
import { jsonRequest } from './support.js';

const run = (body: unknown) => runWebhook(sentry, jsonRequest(body));

const exceptionEvent = {
  title: 'ZeroDivisionError: division by zero',
  platform: 'python',
  version: '7',
  level: 'error',
  web_url: 'https://sentry.example/issues/7/events/abc/',
  datetime: '2024-05-01T10:20:30.123456Z',
  metadata: { filename: 'app/calc.py' },
  exception: {
    values: [
      {
        type: 'ZeroDivisionError',
        stacktrace: {
          frames: [
            { filename: 'app/main.py', context_line: 'run()' },
            {
              filename: 'app/calc.py',
              pre_context: ['def ratio(a, b):', ''],
              context_line: '    return a / b',
              post_context: ['', '# end'],
            },
          ],
        },
      },
    ],
  },
};

describe('sentry', () => {
  it('posts an exception with the frame that raised it, in the topic of its title', () => {
    expect(only(run({ data: { event: exceptionEvent } }))).toEqual({
      topic: 'ZeroDivisionError: division by zero',
      content:
        '**New exception:** [ZeroDivisionError: division by zero](https://sentry.example/issues/7/events/abc/)\n' +
        '```quote\n**level:** error\n**timestamp:** 2024-05-01 10:20:30\n**filename:** app/calc.py\n```\n\n' +
        'Traceback:\n```python3\n     def ratio(a, b):\n\n--->     return a / b\n\n     # end\n```',
    });
  });

  it('posts an exception without a matching frame, and a message event, without a traceback', () => {
    const noFrame = { ...exceptionEvent, metadata: {}, platform: 'go' };
    expect(only(run({ data: { event: noFrame } })).content).toBe(
      '**New exception:** [ZeroDivisionError: division by zero](https://sentry.example/issues/7/events/abc/)\n' +
        '```quote\n**level:** error\n**timestamp:** 2024-05-01 10:20:30\n**filename:** None\n```',
    );
    const message = {
      ...exceptionEvent,
      exception: undefined,
      logentry: { message: 'hi' },
      title: 'hi',
      level: 'info',
    };
    expect(only(run({ data: { event: message } }))).toEqual({
      topic: 'hi',
      content:
        '**New message event:** [hi](https://sentry.example/issues/7/events/abc/)\n' +
        '```quote\n**level:** info\n**timestamp:** 2024-05-01 10:20:30\n```',
    });
  });

  it("builds the link and time of the plain webhook's event from the issue URL and the timestamp", () => {
    const body = {
      url: 'https://sentry.example/organizations/o/issues/9/',
      event: {
        ...exceptionEvent,
        web_url: undefined,
        datetime: undefined,
        event_id: 'e1',
        timestamp: 1714558830.5,
        received: 1714558831,
      },
    };
    expect(only(run(body)).content).toContain(
      '[ZeroDivisionError: division by zero](https://sentry.example/organizations/o/issues/9/events/e1/)\n' +
        '```quote\n**level:** error\n**timestamp:** 2024-05-01 10:20:30\n',
    );
  });

  it('words issue actions, naming a team assignee as a team', () => {
    const issue = {
      title: 'Boom',
      lastSeen: '2024-05-01T10:20:30.5Z',
      level: 'warning',
      assignedTo: { type: 'team', name: 'ops' },
    };
    const actor = { name: 'Ada' };
    expect(only(run({ action: 'assigned', data: { issue }, actor }))).toEqual({
      topic: 'Boom',
      content: 'Issue **Boom** has now been assigned to **team ops** by **Ada**.',
    });
    expect(only(run({ action: 'created', data: { issue: { ...issue, assignedTo: null } }, actor })).content).toBe(
      '**New issue created:** Boom\n```quote\n**level:** warning\n**timestamp:** 2024-05-01 10:20:30\n' +
        '**assignee:** No one\n```',
    );
    expect(only(run({ action: 'resolved', data: { issue }, actor })).content).toBe(
      'Issue **Boom** was marked as resolved by **Ada**.',
    );
    expect(only(run({ action: 'ignored', data: { issue }, actor })).content).toBe(
      'Issue **Boom** was ignored by **Ada**.',
    );
  });

  it("posts the deprecated plugin's payload in the topic of its project", () => {
    expect(only(run({ project_name: 'web', level: 'error', url: 'https://s.example/1', message: 'oops' }))).toEqual({
      topic: 'web',
      content: 'New [issue](https://s.example/1) (level: ERROR):\n\n``` quote\noops\n```',
    });
  });

  it("answers Zulip's unsupported-event error for the Raven SDK and unknown issue actions", () => {
    expect(answered(run({ data: { event: { ...exceptionEvent, version: '6' } } }))).toEqual({
      status: 200,
      code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
      msg: "The 'Raven SDK' event isn't currently supported by the Sentry webhook; ignoring",
    });
    const issue = { title: 'Boom', lastSeen: '2024-05-01T10:20:30Z', assignedTo: null };
    expect(answered(run({ action: 'archived', data: { issue }, actor: { name: 'Ada' } })).msg).toBe(
      "The 'unknown-issue-action type' event isn't currently supported by the Sentry webhook; ignoring",
    );
  });
});
