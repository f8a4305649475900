import { newrelic } from '../src/integrations/newrelic.js';
import { runWebhook } from '../src/index.js';
import { only } from './ops-support.js';
import { jsonRequest } from './support.js';

const incident = {
  issueUrl: 'https://one.newrelic.example/issues/1',
  title: 'web-1 cpu > 90%',
  priority: 'HIGH',
  totalIncidents: 2,
  state: 'ACTIVATED',
  createdAt: 1_700_000_000_250,
  updatedAt: 1_700_000_060_000,
  alertPolicyNames: ['Golden'],
  alertConditionNames: ['CPU', 'Load'],
};

describe('newrelic', () => {
  it('posts an incident in the topic of its title, with its owner and custom fields', () => {
    const body = {
      ...incident,
      owner: 'Kim',
      zulipCustomFields: { region: 'eu', 'up since': [1, true, null], bad: { a: 1 } },
    };
    expect(only(runWebhook(newrelic, jsonRequest(body)))).toEqual({
      topic: 'web-1 cpu > 90%',
      content:
        ':orange_circle: **[web-1 cpu > 90%](https://one.newrelic.example/issues/1)**\n\n```quote\n' +
        '**Priority**: HIGH\n**State**: ACTIVATED\n**Updated at**: <time: 2023-11-14 22:14:20+00:00 >\n' +
        '**Acknowledged by**: Kim\n```\n\n```spoiler :file: Incident details\n\n' +
        '- **Alert policies**: `Golden`\n- **Conditions**: `CPU`, `Load`\n- **Total incidents**: 2\n' +
        '- **Incident created at**: <time: 2023-11-14 22:13:20.250000+00:00 >\n- **Region**: eu\n' +
        '- **Up since**: 1, True, None\n- **Bad**: *Value is not a supported data type*\n\n```',
    });
  });

  it('warns about the fields a payload lacks, in the topic "New Relic incident alerts"', () => {
    const { title: _title, priority: _priority, ...rest } = incident;
    expect(only(runWebhook(newrelic, jsonRequest(rest)))).toEqual({
      topic: 'New Relic incident alerts',
      content:
        ':danger: A New Relic [incident](https://one.newrelic.com/alerts-ai) updated\n\n**Warning**: Unable to use ' +
        'the default notification format because at least one expected field was missing from the incident ' +
        'payload. See [New Relic integration documentation](/integrations/doc/newrelic).\n\n' +
        '**Missing fields**: `title`, `priority`',
    });
  });
});
