import { freshstatus } from '../src/integrations/freshstatus.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const run = (body: unknown, query: Record<string, string> = {}) =>
  runWebhook(freshstatus, jsonRequest(body, { query }));
const event = (type: string) => ({ event_type: type, event_id: 9 });

describe('freshstatus', () => {
  it('posts an opened incident with its start time and at most five services, in the topic of its title', () => {
    const body = {
      id: '881',
      title: 'API errors',
      description: 'We are looking into it.',
      start_time: '2025-02-03 08:15:42.123+00:00',
      affected_services: 'API,Web,Mobile,Search,Billing,Mail,Chat',
      event_data: event('INCIDENT_OPEN'),
    };
    expect(run(body)).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'API errors',
          content:
            'The following incident has been opened: **API errors**\n**Description:** We are looking into it.\n' +
            '**Start Time:** 2025-02-03 08:15 UTC\n**Affected Services:**\n* API\n* Web\n* Mobile\n* Search\n* Billing\n' +
            '[and 2 more service(s)]',
        },
      ],
    });
    expect(run(body, { only_events: '["MAINTENANCE_*"]' })).toEqual({ kind: 'messages', messages: [] });
  });

  it('answers its test event (an incident with id "1") with the setup message', () => {
    expect(run({ id: '1', title: 'Sample', event_data: event('INCIDENT_OPEN') })).toMatchObject({
      messages: [{ topic: 'Freshstatus', content: 'Freshstatus webhook has been successfully configured.' }],
    });
  });

  it('posts notes and closings of incidents and maintenance, planned maintenance, and says what it does not support', () => {
    const note = { id: '5', title: 'DB slow', message: 'Fixed.', event_data: event('INCIDENT_NOTE_CREATE') };
    expect(run({ ...note, incident_status: 'Closed' })).toMatchObject({
      messages: [{ content: 'The following incident has been closed: **DB slow**\n**Note:** Fixed.' }],
    });
    expect(run({ ...note, incident_status: 'Open' })).toMatchObject({
      messages: [{ content: 'The following note has been added to the incident: **DB slow**\n**Note:** Fixed.' }],
    });
    expect(run({ ...note, incident_status: 'Investigating' })).toMatchObject({
      messages: [{ content: 'The event (INCIDENT_NOTE_CREATE) is not supported yet.' }],
    });
    const maintenance = { ...note, title: 'Upgrade', event_data: event('MAINTENANCE_NOTE_CREATE') };
    expect(run({ ...maintenance, incident_status: 'Closed' })).toMatchObject({
      messages: [{ content: 'The following scheduled maintenance has been closed: **Upgrade**\n**Note:** Fixed.' }],
    });
    expect(run({ ...maintenance, incident_status: 'Planned' })).toMatchObject({
      messages: [
        { content: 'The following note has been added to the scheduled maintenance: **Upgrade**\n**Note:** Fixed.' },
      ],
    });
    const planned = {
      id: '7',
      title: 'Upgrade',
      description: 'Brief downtime.',
      scheduled_start_time: '2025-02-04T22:00:00+00:00',
      scheduled_end_time: '2025-02-04T23:30:00+01:00',
      affected_services: 'API',
      event_data: event('MAINTENANCE_PLANNED'),
    };
    expect(run(planned)).toMatchObject({
      messages: [
        {
          content:
            'The following scheduled maintenance has been opened: **Upgrade**\n**Description:** Brief downtime.\n' +
            '**Scheduled Start Time:** 2025-02-04 22:00 UTC\n**Scheduled End Time:** 2025-02-04 23:30 \n' +
            '**Affected Services:**\n* API',
        },
      ],
    });
    expect(run({ id: '8', title: 'Again', event_data: event('INCIDENT_REOPEN') })).toMatchObject({
      messages: [{ topic: 'Again', content: 'The event (INCIDENT_REOPEN) is not supported yet.' }],
    });
  });

  it('answers "Invalid payload" to a payload without what Zulip needs, and tells the bot\'s owner how to fix it', () => {
    const outcome = run({ id: '9', message: 'x', incident_status: 'Closed', event_data: { event_id: 1 } });
    expect(outcome).toMatchObject({ kind: 'error', error: { message: 'Invalid payload', status: 400 } });
    if (outcome.kind !== 'error') throw new Error('expected an error');
    expect(outcome.notice?.kind).toBe('text');
    if (outcome.notice?.kind !== 'text') throw new Error("expected the integration's own notice");
    expect(outcome.notice.text({ botName: 'Status bot', supportEmail: 'help@acme.test' })).toBe(
      'Hi there! Your bot Status bot just received a Freshstatus payload that is missing\n' +
        'some data that Zulip requires. This usually indicates a configuration issue\n' +
        'in your Freshstatus webhook settings. Please make sure that you provide all the required parameters\n' +
        'when configuring the Freshstatus webhook. Contact help@acme.test if you\nneed further help!',
    );
  });
});
