import { insping } from '../src/integrations/insping.js';
import { librato } from '../src/integrations/librato.js';
import { mention } from '../src/integrations/mention.js';
import { opencollective } from '../src/integrations/opencollective.js';
import { opensearch } from '../src/integrations/opensearch.js';
import { pingdom } from '../src/integrations/pingdom.js';
import { raygun } from '../src/integrations/raygun.js';
import { rundeck } from '../src/integrations/rundeck.js';
import { sonarqube } from '../src/integrations/sonarqube.js';
import { statuspage } from '../src/integrations/statuspage.js';
import { thinkst } from '../src/integrations/thinkst.js';
import { transifex } from '../src/integrations/transifex.js';
import { updown } from '../src/integrations/updown.js';
import { runWebhook, webhookRequest } from '../src/index.js';
import { answered, only, posted } from './ops-support.js';
import { formRequest, jsonRequest } from './support.js';

describe('thinkst', () => {
  it('posts a canary incident with its details, stars in backticks', () => {
    const body = {
      AlertType: 'CanaryIncident',
      CanaryName: 'file-server',
      Intro: 'SSH login attempt.',
      IncidentHash: 'h1',
      Description: 'SSH Login Attempt',
      Timestamp: '2024-01-02 03:04:05 (UTC)',
      CanaryIP: '10.0.0.5',
      SourceIP: '10.0.0.9',
      ReverseDNS: '',
      AdditionalDetails: [
        ['Username', 'root'],
        ['Password', '****'],
        ['Port', 22],
      ],
    };
    expect(only(runWebhook(thinkst, jsonRequest(body)))).toEqual({
      topic: 'canary alert - file-server',
      content:
        '**:alert: Canary *file-server* has been triggered!**\n\nSSH login attempt.\n\n**Incident ID:** `h1`\n' +
        '**Kind:** SSH Login Attempt\n**Timestamp:** 2024-01-02 03:04:05 (UTC)\n**Canary IP:** `10.0.0.5`\n' +
        '**Source IP:** `10.0.0.9`\n**Username:** root\n**Password:** `****`\n**Port:** 22',
    });
  });

  it('names a canarytoken by its reminder and counts its triggers', () => {
    const body = { AlertType: 'CanarytokenIncident', Reminder: 'aws keys', Intro: 'Used.', Token: 't1', Triggered: 1 };
    expect(only(runWebhook(thinkst, jsonRequest(body)))).toEqual({
      topic: 'canarytoken alert - aws keys',
      content:
        '**:alert: Canarytoken *aws keys* has been triggered!**\n\nUsed.\n\n**Token:** `t1`\n**Triggered:** 1 time',
    });
  });
});

describe('raygun', () => {
  const application = { name: 'Shop', url: 'https://raygun.example/app' };

  it('posts a new error with its tags, affected user and custom data (sorted), in the topic "test"', () => {
    const error = {
      url: 'https://raygun.example/e/1',
      message: '',
      firstOccurredOn: '2024-03-05T06:07:08Z',
      lastOccurredOn: '2024-03-15T16:17:18Z',
      usersAffected: 3,
      totalOccurrences: 7,
      instance: {
        tags: ['beta'],
        affectedUser: { UUID: 'abcdef-0123-456789' },
        customData: { zone: 'eu', active: false },
      },
    };
    const body = { event: 'error_notification', eventType: 'NewErrorOccurred', error, application };
    expect(only(runWebhook(raygun, jsonRequest(body)))).toEqual({
      topic: 'test',
      content:
        'New [Error](https://raygun.example/e/1) occurred:\n* **First occurred**: Tue Mar  5 06:07:08 2024\n' +
        '* **Last occurred**: Fri Mar 15 16:17:18 2024\n* 3 users affected with 7 total occurrences\n' +
        '* **Tags**: beta\n* **Affected user**: abcdef...56789\n* **active**: False\n* **zone**: eu\n' +
        '* **Application details**: [Shop](https://raygun.example/app)',
    });
  });

  it('posts an assignment, and filters by the event', () => {
    const error = {
      url: 'https://raygun.example/e/2',
      user: 'Kim',
      assignedTo: 'Lee',
      activityDate: '2024-03-05T06:07:08Z',
    };
    const body = { event: 'error_activity', eventType: 'AssignedToUser', error, application };
    expect(only(runWebhook(raygun, jsonRequest(body))).content).toBe(
      'Kim assigned [Error](https://raygun.example/e/2) to Lee:\n* **Timestamp**: Tue Mar  5 06:07:08 2024\n' +
        '* **Application details**: [Shop](https://raygun.example/app)',
    );
    expect(posted(runWebhook(raygun, jsonRequest(body, { query: { only_events: '["error_notification"]' } })))).toEqual(
      [],
    );
  });
});

describe('librato', () => {
  it('posts a triggered alert with each violated condition', () => {
    const payload = {
      alert: { id: 42, name: 'disk', runbook_url: 'https://wiki.example/disk' },
      conditions: [{ summary_function: 'max', type: 'above', threshold: 90, duration: 60 }],
      violations: { 'test-source': [{ metric: 'disk.used', recorded_at: 1_700_000_000 }] },
    };
    expect(only(runWebhook(librato, formRequest({ payload: JSON.stringify(payload) })))).toEqual({
      topic: 'Alert disk',
      content:
        'Alert [alert_name](https://metrics.librato.com/alerts#/42) has triggered! [Reaction steps](https://wiki.example/disk):' +
        '\n * Metric `disk.used`, max was above 90 by 60s, recorded at 2023-11-14 22:13:20 UTC.',
    });
  });

  it('posts snapshots in the topic "Snapshots" and rejects an empty request', () => {
    const body = {
      attachments: [{ author_name: 'Kim', image_url: 'https://img.example/1.png', title: 'https://m.example' }],
    };
    expect(only(runWebhook(librato, jsonRequest(body)))).toEqual({
      topic: 'Snapshots',
      content: '**Kim** sent a [snapshot](https://img.example/1.png) of [metric](https://m.example).',
    });
    expect(answered(runWebhook(librato, jsonRequest({})))).toMatchObject({ status: 400, msg: 'Malformed JSON input' });
  });
});

describe('rundeck', () => {
  it('posts an execution in the topic of its job', () => {
    const body = {
      trigger: 'avgduration',
      execution: {
        id: 8,
        href: 'https://rd.example/e/8',
        status: 'running',
        project: 'ops',
        job: { name: 'Backup', permalink: 'https://rd.example/j/1' },
      },
    };
    expect(only(runWebhook(rundeck, jsonRequest(body)))).toEqual({
      topic: 'Backup',
      content:
        '[Backup](https://rd.example/j/1) execution [#8](https://rd.example/e/8) for ops is running long. :time_ticking:',
    });
  });
});

describe('sonarqube', () => {
  it('lists the quality gate\'s failed conditions in the topic "<project> / <branch>"', () => {
    const body = {
      project: { name: 'shop', url: 'https://sq.example/shop' },
      branch: { name: 'main' },
      qualityGate: {
        status: 'ERROR',
        conditions: [
          { metric: 'new_coverage', operator: 'LESS_THAN', value: '41.5', status: 'ERROR', errorThreshold: '80' },
          { metric: 'bugs', operator: 'GREATER_THAN', status: 'ERROR', errorThreshold: '0' },
          { metric: 'smells', operator: 'GREATER_THAN', value: '1', status: 'OK', errorThreshold: '5' },
        ],
      },
    };
    expect(only(runWebhook(sonarqube, jsonRequest(body)))).toEqual({
      topic: 'shop / main',
      content:
        'Project [shop](https://sq.example/shop) analysis of branch main resulted in error:\n' +
        '* new coverage: **error** 41.5 should be greater than or equal to 80.\n* bugs: **error**.',
    });
  });
});

describe('updown', () => {
  it('posts each event of the list in the topic of the checked URL', () => {
    const check = { url: 'https://shop.example' };
    const body = [
      { event: 'check.down', check, downtime: { error: '503', started_at: '2024-02-03T04:05:06Z', duration: null } },
      { event: 'check.up', check, downtime: { error: '503', started_at: '2024-02-03T04:05:06Z', duration: 3723 } },
    ];
    expect(posted(runWebhook(updown, jsonRequest(body)))).toEqual([
      {
        topic: 'https://shop.example',
        content: 'Service is `down`. It returned a 503 error at 2024-02-03 04:05:06 UTC.',
      },
      { topic: 'https://shop.example', content: 'Service is `up` again after 1 hour 2 minutes 3 seconds.' },
    ]);
  });
});

describe('statuspage', () => {
  it('posts incidents and component changes in the topic "<name>: <page status>"', () => {
    const page = { status_description: 'Partial Outage' };
    const incident = { name: 'Slow API', status: 'investigating', incident_updates: [{ body: 'Looking into it.' }] };
    expect(only(runWebhook(statuspage, jsonRequest({ page, incident })))).toEqual({
      topic: 'Slow API: Partial Outage',
      content: '**Slow API**:\n* State: **investigating**\n* Description: Looking into it.',
    });
    const component = {
      component: { name: 'API' },
      component_update: { old_status: 'operational', new_status: 'major_outage' },
    };
    expect(only(runWebhook(statuspage, jsonRequest({ page, ...component }))).content).toBe(
      '**API** has changed status from **operational** to **major_outage**.',
    );
    expect(answered(runWebhook(statuspage, jsonRequest({ page })))).toMatchObject({
      status: 400,
      code: 'ANOMALOUS_WEBHOOK_PAYLOAD',
      msg: 'Unable to parse request: Did Statuspage generate this event?',
    });
  });
});

describe('pingdom', () => {
  it('quotes the description when a check goes down', () => {
    const body = {
      check_type: 'HTTPS',
      check_name: 'Shop',
      check_params: { hostname: 'shop.example' },
      previous_state: 'UP',
      current_state: 'DOWN',
      long_description: 'Timeout',
    };
    expect(only(runWebhook(pingdom, jsonRequest(body)))).toEqual({
      topic: 'Shop status.',
      content: 'Service shop.example changed its HTTPS status from UP to DOWN:\n\n``` quote\nTimeout\n```',
    });
    expect(
      only(runWebhook(pingdom, jsonRequest({ ...body, previous_state: 'DOWN', current_state: 'UP' }))).content,
    ).toBe('Service shop.example changed its HTTPS status from DOWN to UP.');
  });
});

describe('opensearch', () => {
  const text = (body: string) =>
    webhookRequest({
      method: 'POST',
      path: '/',
      query: 'stream=test',
      headers: { 'content-type': 'text/plain' },
      body,
    });

  it('posts the text as it is, in the topic its first line names or "OpenSearch alerts"', () => {
    expect(only(runWebhook(opensearch, text('topic: Disk\nDisk is **full**')))).toEqual({
      topic: 'Disk',
      content: 'Disk is **full**',
    });
    expect(only(runWebhook(opensearch, text('Monitor fired')))).toEqual({
      topic: 'OpenSearch alerts',
      content: 'Monitor fired',
    });
  });
});

describe('insping, opencollective, transifex and mention', () => {
  it('posts an Insping state change', () => {
    const data = {
      check_state_name: 'Down',
      request_url: 'https://shop.example',
      response_time: 0,
      request_start_time: '2024-04-01T09:08:07.123456+00:00',
    };
    expect(only(runWebhook(insping, jsonRequest({ webhook_event_data: data })))).toEqual({
      topic: 'insping',
      content:
        'State changed to **Down**:\n* **URL**: https://shop.example\n* **Response time**: 0 ms\n' +
        '* **Timestamp**: Mon Apr  1 09:08:07 2024',
    });
  });

  it('posts an Open Collective donation, mentioning the donor unless incognito', () => {
    const donation = (name: string) => ({
      data: { member: { memberCollective: { name } }, order: { formattedAmount: '$5.00' } },
    });
    expect(only(runWebhook(opencollective, jsonRequest(donation('Kim'))))).toEqual({
      topic: 'New Member',
      content: '@_**Kim** donated **$5.00**! :tada:',
    });
    expect(only(runWebhook(opencollective, jsonRequest(donation('Incognito')))).content).toBe(
      'An **Incognito** member donated **$5.00**! :tada:',
    );
  });

  it('posts a Transifex completion from the URL parameters', () => {
    const query = { project: 'docs', language: 'de', resource: 'intro', event: 'translation_completed' };
    expect(only(runWebhook(transifex, jsonRequest('', { query })))).toEqual({
      topic: 'docs in de',
      content: 'Resource intro fully translated.',
    });
    expect(answered(runWebhook(transifex, jsonRequest('', { query: { project: 'docs' } })))).toMatchObject({
      status: 400,
      msg: "Missing 'resource' argument",
    });
  });

  it('quotes a Mention alert in the topic "news"', () => {
    const body = { title: 'We are in the news', url: 'https://news.example/1', description: 'A short quote' };
    expect(only(runWebhook(mention, jsonRequest(body)))).toEqual({
      topic: 'news',
      content: '**[We are in the news](https://news.example/1)**:\n\n``` quote\nA short quote\n```',
    });
  });
});
