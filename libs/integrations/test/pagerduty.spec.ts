import { pagerduty } from '../src/integrations/pagerduty.js';
import { runWebhook } from '../src/index.js';
import { answered, only, posted } from './ops-support.js';
import { jsonRequest } from './support.js';

const run = (body: unknown, query: Record<string, string> = {}) => runWebhook(pagerduty, jsonRequest(body, { query }));

const v1 = (type: string, incident: Record<string, unknown> = {}) => ({
  type,
  data: {
    incident: {
      id: 'P1',
      incident_number: 12,
      html_url: 'https://acme.pagerduty.com/incidents/P1',
      service: { name: 'API', html_url: 'https://acme.pagerduty.com/services/S1' },
      assigned_to_user: { email: 'kim@acme.example', html_url: 'https://acme.pagerduty.com/users/U1' },
      trigger_summary_data: { subject: 'CPU high' },
      ...incident,
    },
  },
});

describe('pagerduty', () => {
  it('posts V1 incidents in the topic "Incident <number>", one message per entry', () => {
    const messages = posted(
      run({
        messages: [
          v1('incident.trigger'),
          v1('incident.resolve', {
            resolved_by_user: { email: 'lee@acme.example', html_url: 'https://acme.pagerduty.com/users/U2' },
          }),
        ],
      }),
    );
    expect(messages).toEqual([
      {
        topic: 'Incident 12',
        content:
          'Incident [12](https://acme.pagerduty.com/incidents/P1) triggered by [API](https://acme.pagerduty.com/services/S1) ' +
          '(assigned to [kim](https://acme.pagerduty.com/users/U1)).\n\n``` quote\nCPU high\n```',
      },
      {
        topic: 'Incident 12',
        content:
          'Incident [12](https://acme.pagerduty.com/incidents/P1) resolved by [lee](https://acme.pagerduty.com/users/U2).' +
          '\n\n``` quote\nCPU high\n```',
      },
    ]);
  });

  it('posts V2 incidents with their first assignee and description', () => {
    const message = {
      event: 'incident.acknowledge',
      incident: {
        id: 'P2',
        incident_number: 5,
        html_url: 'https://acme.pagerduty.com/incidents/P2',
        service: { name: 'DB', html_url: 'https://acme.pagerduty.com/services/S2' },
        assignments: [{ assignee: { summary: 'Kim Lee', html_url: 'https://acme.pagerduty.com/users/U1' } }],
        description: 'Disk full',
      },
    };
    expect(only(run({ messages: [message] }))).toEqual({
      topic: 'Incident 5',
      content:
        'Incident [5](https://acme.pagerduty.com/incidents/P2) acknowledged by ' +
        '[Kim Lee](https://acme.pagerduty.com/users/U1).\n\n``` quote\nDisk full\n```',
    });
  });

  it("posts V3 events in the topic of the incident's title and number", () => {
    const event = {
      event: {
        event_type: 'incident.reassigned',
        agent: null,
        data: {
          id: 'Q1',
          number: 3,
          title: 'Checkout down',
          html_url: 'https://acme.pagerduty.com/incidents/Q1',
          assignees: [{ summary: 'Sam', html_url: 'https://acme.pagerduty.com/users/U3' }],
        },
      },
    };
    expect(only(run(event))).toEqual({
      topic: 'Incident Checkout down (#3)',
      content:
        'Incident [Checkout down (#3)](https://acme.pagerduty.com/incidents/Q1) reassigned to [Sam](https://acme.pagerduty.com/users/U3).',
    });
  });

  it('filters by the action and answers unsupported event types', () => {
    expect(posted(run({ messages: [v1('incident.trigger')] }, { only_events: '["resolved"]' }))).toEqual([]);
    expect(answered(run({ messages: [v1('incident.snooze')] }))).toMatchObject({
      status: 200,
      msg: "The 'incident.snooze' event isn't currently supported by the PagerDuty webhook; ignoring",
    });
  });
});
