import { airbrake } from '../src/integrations/airbrake.js';
import { airbyte } from '../src/integrations/airbyte.js';
import { appfollow } from '../src/integrations/appfollow.js';
import { appveyor } from '../src/integrations/appveyor.js';
import { buildbot } from '../src/integrations/buildbot.js';
import { canarytoken } from '../src/integrations/canarytoken.js';
import { codeship } from '../src/integrations/codeship.js';
import { crashlytics } from '../src/integrations/crashlytics.js';
import { delighted } from '../src/integrations/delighted.js';
import { dropbox } from '../src/integrations/dropbox.js';
import { errbit } from '../src/integrations/errbit.js';
import { flock } from '../src/integrations/flock.js';
import { freshping } from '../src/integrations/freshping.js';
import { gocd } from '../src/integrations/gocd.js';
import { gosquared } from '../src/integrations/gosquared.js';
import { harbor } from '../src/integrations/harbor.js';
import { hellosign } from '../src/integrations/hellosign.js';
import { heroku } from '../src/integrations/heroku.js';
import { homeassistant } from '../src/integrations/homeassistant.js';
import { runWebhook, withPeople, type Integration, type RealmPeople } from '../src/index.js';
import { formRequest, jsonRequest } from './support.js';

const run = (integration: Integration, body: unknown, query: Record<string, string> = {}) =>
  runWebhook(integration, jsonRequest(body, { query }));
const message = (topic: string, content: string) => ({
  kind: 'messages',
  messages: [{ stream: 'test', topic, content }],
});

describe('airbrake and errbit', () => {
  it("post an error's class, linked, and message in the project's topic", () => {
    const airbrakeBody = {
      error: { error_class: 'KeyError', error_message: "'user'", project: { name: 'shop' } },
      airbrake_error_url: 'https://acme.airbrake.io/projects/1/groups/2',
    };
    expect(run(airbrake, airbrakeBody)).toEqual(
      message('shop', `[KeyError](https://acme.airbrake.io/projects/1/groups/2): "'user'" occurred.`),
    );
    const errbitBody = {
      problem: {
        app_name: 'shop',
        environment: 'staging',
        error_class: 'NoMethodError',
        message: 'nil',
        url: 'https://errbit.acme.test/p/1',
      },
    };
    expect(run(errbit, errbitBody)).toEqual(
      message('shop / staging', '[NoMethodError](https://errbit.acme.test/p/1): "nil" occurred.'),
    );
  });
});

describe('airbyte', () => {
  const data = {
    workspace: { name: 'Acme' },
    connection: { name: 'Orders → Warehouse', url: 'https://cloud.airbyte.test/c/1' },
    source: { name: 'Orders', url: 'https://cloud.airbyte.test/s/1' },
    destination: { name: 'Warehouse', url: 'https://cloud.airbyte.test/d/1' },
    success: false,
    durationFormatted: '2 min',
    recordsEmitted: 10,
    recordsCommitted: 8,
    bytesEmittedFormatted: '1 kB',
    bytesCommittedFormatted: '900 B',
    errorMessage: 'Destination refused the connection',
  };

  it('posts a failed sync with its counts and error, in the topic "<workspace> - <connection>"', () => {
    expect(run(airbyte, { data })).toEqual(
      message(
        'Acme - Orders → Warehouse',
        ':red_circle: Airbyte sync **failed** for [Orders → Warehouse](https://cloud.airbyte.test/c/1).\n\n\n' +
          '* **Source:** [Orders](https://cloud.airbyte.test/s/1)\n* **Destination:** [Warehouse](https://cloud.airbyte.test/d/1)\n' +
          '* **Records:** 10 emitted, 8 committed\n* **Bytes:** 1 kB emitted, 900 B committed\n* **Duration:** 2 min\n\n' +
          '**Error message:** Destination refused the connection',
      ),
    );
    expect(run(airbyte, { data: { ...data, success: true } })).toMatchObject({
      messages: [{ content: expect.stringMatching(/^:green_circle: Airbyte sync \*\*succeeded\*\*[^]*2 min\n$/) }],
    });
  });

  it('posts its test notification as it is', () => {
    expect(run(airbyte, { text: 'Hello from Airbyte' })).toEqual(message('Airbyte notification', 'Hello from Airbyte'));
  });
});

describe('appfollow', () => {
  it("posts a review with Slack's emphasis made Markdown, in the topic of its first line", () => {
    expect(run(appfollow, { text: 'Shop app\n*Great* _really_ ~bad~\n_by_ *Ada*' })).toEqual(
      message('Shop app', 'Shop app\n**Great** *really* ~~bad~~\n*by* **Ada**'),
    );
  });
});

describe('appveyor', () => {
  it('posts a finished build with its commit and times, in the topic of the project', () => {
    const eventData = {
      projectName: 'shop',
      buildVersion: '1.0.7',
      status: 'failed',
      buildUrl: 'https://ci.appveyor.test/b/7',
      commitUrl: 'https://github.com/acme/shop/commit/abc1234',
      committerName: 'Ada',
      commitDate: '1/2/2025 3:04 PM',
      commitMessage: 'Bump',
      commitId: 'abc1234',
      started: '1/2/2025 3:05 PM',
      finished: '1/2/2025 3:09 PM',
    };
    expect(run(appveyor, { eventName: 'build_failure', eventData })).toEqual(
      message(
        'shop',
        '[Build shop 1.0.7 failed](https://ci.appveyor.test/b/7):\n' +
          '* **Commit**: [abc1234: Bump](https://github.com/acme/shop/commit/abc1234) by Ada\n' +
          '* **Started**: 1/2/2025 3:05 PM\n* **Finished**: 1/2/2025 3:09 PM',
      ),
    );
  });
});

describe('buildbot', () => {
  const build = {
    buildid: 9,
    buildername: 'unit',
    url: 'https://bb.acme.test/#builders/1/builds/9',
    project: 'acme/shop',
  };
  it('posts builds started and finished with their result, in the topic of the project ("general")', () => {
    expect(run(buildbot, { ...build, event: 'new' })).toEqual(
      message('acme/shop', 'Build [#9](https://bb.acme.test/#builders/1/builds/9) for **unit** started.'),
    );
    expect(run(buildbot, { ...build, project: '', event: 'finished', results: 4 })).toEqual(
      message(
        'general',
        'Build [#9](https://bb.acme.test/#builders/1/builds/9) (result: exception) for **unit** finished.',
      ),
    );
    expect(run(buildbot, { ...build, event: 'finished', results: 0 }, { only_events: '["new"]' })).toEqual({
      kind: 'messages',
      messages: [],
    });
  });
});

describe('canarytoken', () => {
  it('posts a triggered token, with its memo and link, in the topic "canarytoken alert"', () => {
    const body = {
      time: '2025-01-05 10:11:12 (UTC)',
      memo: 'AWS key in the wiki',
      manage_url: 'https://canarytokens.test/m?t=1',
    };
    expect(run(canarytoken, body)).toEqual(
      message(
        'canarytoken alert',
        '**:alert: Canarytoken has been triggered on 2025-01-05 10:11:12 (UTC)!**\n\nAWS key in the wiki \n\n' +
          '[Manage this canarytoken](https://canarytokens.test/m?t=1)',
      ),
    );
  });
});

describe('codeship and crashlytics', () => {
  it("post a build's status in the project's topic", () => {
    const build = {
      project_name: 'acme/shop',
      build_url: 'https://codeship.test/b/1',
      committer: 'ada',
      branch: 'main',
    };
    expect(run(codeship, { build: { ...build, status: 'testing' } })).toEqual(
      message('acme/shop', '[Build](https://codeship.test/b/1) triggered by ada on main branch started.'),
    );
    expect(run(codeship, { build: { ...build, status: 'stopped' } })).toMatchObject({
      messages: [{ content: '[Build](https://codeship.test/b/1) triggered by ada on main branch has stopped status.' }],
    });
  });

  it("post an issue's impact in the topic '<id>: <title>', and the verification in 'Setup'", () => {
    const issue = {
      display_id: 12,
      title: 'Crash on start',
      impacted_devices_count: 3,
      url: 'https://crashlytics.test/i/12',
    };
    expect(run(crashlytics, { event: 'issue_impact_change', payload: issue })).toEqual(
      message('12: Crash on start', '[Issue](https://crashlytics.test/i/12) impacts at least 3 device(s).'),
    );
    expect(run(crashlytics, { event: 'verification' })).toEqual(
      message('Setup', 'Webhook has been successfully configured.'),
    );
  });
});

describe('delighted', () => {
  it('posts a promoter (7 and up) and other feedback differently', () => {
    const response = (score: number) => ({
      event_data: { person: { email: 'ada@acme.test' }, score, comment: 'Nice' },
    });
    expect(run(delighted, response(7))).toEqual(
      message(
        'Survey response',
        'Kudos! You have a new promoter. Score of 7/10 from ada@acme.test:\n\n``` quote\nNice\n```',
      ),
    );
    expect(run(delighted, response(6))).toMatchObject({
      messages: [{ content: expect.stringMatching(/^Great! You have new feedback\. Score of 6\/10/) }],
    });
  });
});

describe('dropbox', () => {
  it('posts a change on POST and answers the GET challenge with its text, which it wants', () => {
    expect(run(dropbox, { list_folder: { accounts: ['dbid:1'] } })).toEqual(
      message('Dropbox', 'File has been updated on Dropbox!'),
    );
    const challenge = runWebhook(dropbox, jsonRequest('', { method: 'GET', query: { challenge: 'abc123' } }));
    expect(challenge).toMatchObject({
      kind: 'response',
      messages: [],
      response: { status: 200, body: 'abc123', contentType: 'text/plain; charset=UTF-8' },
    });
    expect(runWebhook(dropbox, jsonRequest('', { method: 'GET' }))).toMatchObject({
      kind: 'error',
      error: { message: "Missing 'challenge' argument", status: 400 },
    });
  });
});

describe('flock', () => {
  it('posts the text, or the notification when there is none', () => {
    expect(run(flock, { text: 'Stand-up in 5' })).toEqual(message('Flock notifications', 'Stand-up in 5'));
    expect(run(flock, { text: '', notification: 'Ada pinned a message' })).toEqual(
      message('Flock notifications', 'Ada pinned a message'),
    );
  });
});

describe('freshping', () => {
  const check = {
    check_name: 'Shop',
    application_name: 'Shop app',
    request_url: 'https://shop.acme.test',
    http_status_code: 503,
  };
  it('posts a check down and up in its topic, and the test as the setup message', () => {
    expect(run(freshping, { webhook_event_data: { ...check, check_state_name: 'Reporting Error' } })).toEqual(
      message('Shop', 'https://shop.acme.test has just become unreachable.\nError code: 503.'),
    );
    expect(run(freshping, { webhook_event_data: { ...check, check_state_name: 'Available' } })).toEqual(
      message('Shop', 'https://shop.acme.test is back up and no longer unreachable.'),
    );
    expect(
      run(freshping, {
        webhook_event_data: { ...check, application_name: 'Webhook test', check_state_name: 'Available' },
      }),
    ).toEqual(message('Freshping', 'Freshping webhook has been successfully configured.'));
  });

  it("answers Zulip's unsupported-event error for another state", () => {
    expect(run(freshping, { webhook_event_data: { ...check, check_state_name: 'Paused' } })).toMatchObject({
      kind: 'error',
      error: {
        status: 200,
        code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
        message: "The 'Paused' event isn't currently supported by the Freshping webhook; ignoring",
      },
    });
  });
});

describe('gocd', () => {
  const pipeline = (state: string, result: string) => ({
    name: 'shop',
    'build-cause': [
      {
        material: { 'git-configuration': { url: 'https://github.com/acme/shop', branch: 'main' } },
        modifications: [{ revision: '0123456789abcdef' }],
      },
    ],
    stage: {
      name: 'test',
      state,
      result,
      'create-time': 'Jan 2, 2025, 3:04:05 PM',
      'last-transition-time': 'Jan 2, 2025, 3:09:05 PM',
      jobs: [
        { name: 'lint', result: 'Failed' },
        { name: 'unit', result: 'Passed' },
        { name: 'e2e', result: 'Failed' },
      ],
    },
  });
  const commit = '[`0123456789a`](https://github.com/acme/shop/commit/0123456789a) on branch `main`';

  it('posts a stage building and completed, with its jobs by result, in the topic "<pipeline> / <stage>"', () => {
    expect(run(gocd, { type: 'stage', data: { pipeline: pipeline('Building', 'Unknown') } })).toEqual(
      message(
        'shop / test',
        `\n**Pipeline building**: shop / test\n- **Commit**: ${commit}\n- **Started**: Jan 2, 2025, 3:04:05 PM\n`,
      ),
    );
    expect(run(gocd, { type: 'stage', data: { pipeline: pipeline('Failed', 'Failed') } })).toEqual(
      message(
        'shop / test',
        `\n:red_circle: **Build failed**: shop / test\n- **Commit**: ${commit}\n- **Started**: Jan 2, 2025, 3:04:05 PM\n` +
          '- **Finished**: Jan 2, 2025, 3:09:05 PM\n- **Failed**: `lint`, `e2e`\n- **Passed**: `unit`\n',
      ),
    );
  });

  it('posts nothing for notifications that are not of a stage', () => {
    expect(run(gocd, { type: 'agent', data: {} })).toEqual({ kind: 'messages', messages: [] });
  });
});

describe('gosquared', () => {
  it('posts a traffic spike and a public chat message, and nothing for a private one', () => {
    expect(run(gosquared, { concurrents: 120, siteDetails: { domain: 'shop.acme.test', acct: 'GSN-1' } })).toEqual(
      message(
        'GoSquared - shop.acme.test',
        '[shop.acme.test](https://www.gosquared.com/now/GSN-1) has 120 visitors online.',
      ),
    );
    const chat = (isPrivate: boolean) => ({
      message: { private: isPrivate, session: { title: 'Pricing' }, content: 'Do you ship to Mars?' },
      person: { status: 'visitor', _anon: { name: 'Blue Fox' } },
    });
    expect(run(gosquared, chat(false))).toEqual(
      message(
        'Live chat session - Pricing',
        'The visitor **Blue Fox** messaged:\n\n``` quote\nDo you ship to Mars?\n```',
      ),
    );
    expect(run(gosquared, chat(true))).toEqual({ kind: 'messages', messages: [] });
    expect(run(gosquared, { something: 'else' })).toMatchObject({
      error: { code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE', data: { event_type: 'unknown_event' } },
    });
  });
});

describe('harbor', () => {
  const push = {
    type: 'PUSH_ARTIFACT',
    operator: 'ada',
    event_data: { repository: { repo_full_name: 'acme/shop' }, resources: [{ tag: 'v2', digest: 'sha256:aa' }] },
  };
  const people: RealmPeople = {
    fullNameByEmail: () => null,
    guessFullName: (name) => (name === '**ada**' ? 'Ada Lovelace' : null),
  };

  it('posts an image pushed by its operator, named as the user Zulip guesses when there is one', async () => {
    expect(run(harbor, push)).toEqual(message('acme/shop', '**ada** pushed image `acme/shop:v2`'));
    const request = await withPeople(harbor, jsonRequest(push), async (query) => {
      expect(query).toEqual({ emails: [], names: ['**ada**'] });
      return people;
    });
    expect(runWebhook(harbor, request)).toEqual(message('acme/shop', '@**Ada Lovelace** pushed image `acme/shop:v2`'));
  });

  it('posts a completed scan by severity, and ignores pulls and deletions', () => {
    const report = 'application/vnd.security.vulnerability.report; version=1.1';
    const scan = (summary: Record<string, number>) => ({
      type: 'SCANNING_COMPLETED',
      operator: 'auto',
      event_data: {
        repository: { repo_full_name: 'acme/shop' },
        resources: [{ digest: 'sha256:bb', scan_overview: { [report]: { summary: { summary } } } }],
      },
    });
    expect(run(harbor, scan({ Critical: 1, Low: 4 }))).toEqual(
      message(
        'acme/shop',
        'Image scan completed for `acme/shop@sha256:bb`. Vulnerabilities by severity:\n\n* Critical: **1**\n* Low: **4**\n',
      ),
    );
    expect(run(harbor, scan({}))).toMatchObject({
      messages: [{ content: expect.stringMatching(/severity:\n\nNone\n$/) }],
    });
    expect(run(harbor, { ...push, type: 'PULL_ARTIFACT' })).toEqual({ kind: 'messages', messages: [] });
    expect(run(harbor, { ...push, type: 'REPLICATION' })).toMatchObject({
      error: { code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE' },
    });
  });
});

describe('heroku', () => {
  it('posts a deploy with its git log, in the topic of the app, from the form Heroku posts', () => {
    const fields = {
      app: 'shop',
      user: 'ada@acme.test',
      url: 'https://shop.example',
      head: 'abc1234',
      git_log: '  * Ada: fix',
    };
    expect(runWebhook(heroku, formRequest(fields))).toEqual(
      message(
        'shop',
        'ada@acme.test deployed version abc1234 of [shop](https://shop.example):\n\n``` quote\n  * Ada: fix\n```',
      ),
    );
    expect(runWebhook(heroku, formRequest({ app: 'shop' }))).toMatchObject({
      error: { message: "Missing 'head' argument" },
    });
  });
});

describe('hellosign', () => {
  it("posts who a document awaits and who signed it, and answers HelloSign's expected text", () => {
    const signatures = [
      { signer_name: 'Ada', status_code: 'awaiting_signature' },
      { signer_name: 'Grace', status_code: 'signed' },
      { signer_name: 'Alan', status_code: 'awaiting_signature' },
      { signer_name: 'Edsger', status_code: 'awaiting_signature' },
    ];
    const outcome = runWebhook(
      hellosign,
      formRequest({ json: JSON.stringify({ signature_request: { title: 'NDA', signatures } }) }),
    );
    expect(outcome).toEqual({
      kind: 'response',
      response: expect.objectContaining({ status: 200, body: { msg: 'Hello API Event Received' } }),
      messages: [
        {
          stream: 'test',
          topic: 'NDA',
          content:
            'The `NDA` document is awaiting the signature of Ada, Alan, and Edsger, and was just signed by Grace.',
        },
      ],
    });
    expect(runWebhook(hellosign, formRequest({ json: '{"event": {}}' }))).toMatchObject({
      kind: 'response',
      messages: [],
    });
    expect(runWebhook(hellosign, formRequest({}))).toMatchObject({ error: { message: "Missing 'json' argument" } });
  });
});

describe('homeassistant', () => {
  it('posts the message in its topic, or "homeassistant"', () => {
    expect(run(homeassistant, { message: 'Garage open' })).toEqual(message('homeassistant', 'Garage open'));
    expect(run(homeassistant, { message: 'Garage open', topic: 'House' })).toEqual(message('House', 'Garage open'));
  });
});
