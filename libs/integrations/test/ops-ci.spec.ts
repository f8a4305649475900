import { netlify } from '../src/integrations/netlify.js';
import { papertrail } from '../src/integrations/papertrail.js';
import { semaphore } from '../src/integrations/semaphore.js';
import { splunk } from '../src/integrations/splunk.js';
import { teamcity } from '../src/integrations/teamcity.js';
import { uptimerobot } from '../src/integrations/uptimerobot.js';
import { wordpress } from '../src/integrations/wordpress.js';
import { zabbix } from '../src/integrations/zabbix.js';
import { runWebhook, type Outcome } from '../src/index.js';
import { answered, only, posted } from './ops-support.js';
import { formRequest, jsonRequest } from './support.js';

/** The text of the notice an outcome sends the bot's owner, for a bot "Hook" of a server helped at help@…. */
function noticeOf(outcome: Outcome): string {
  const notice = outcome.kind === 'response' ? undefined : outcome.notice;
  if (notice?.kind !== 'text')
    throw new Error(`expected a notice of the integration's own, got ${JSON.stringify(notice)}`);
  return notice.text({ botName: 'Hook', supportEmail: 'help@confab.example' });
}

describe('splunk', () => {
  it('posts the alert in the topic of the search, cut to 60 characters, with placeholders', () => {
    const name = 'x'.repeat(70);
    expect(only(runWebhook(splunk, jsonRequest({ search_name: name, result: { host: 'h1' } })))).toEqual({
      topic: `${'x'.repeat(57)}...`,
      content:
        `Splunk alert from saved search:\n* **Search**: [${name}](Missing results_link)\n* **Host**: h1\n` +
        '* **Source**: `Missing source`\n* **Raw**: `Missing _raw`',
    });
  });
});

describe('uptimerobot', () => {
  it('posts a monitor down and back up in the topic of its name', () => {
    const base = { monitor_friendly_name: 'API', monitor_url: 'api.example', alert_details: 'Timeout' };
    expect(only(runWebhook(uptimerobot, jsonRequest({ ...base, alert_type_friendly_name: 'Down' })))).toEqual({
      topic: 'API',
      content: 'API (api.example) is DOWN (Timeout).',
    });
    const up = { ...base, alert_type_friendly_name: 'Up', alert_friendly_duration: '3 minutes' };
    expect(only(runWebhook(uptimerobot, jsonRequest(up))).content).toBe(
      'API (api.example) is back UP (Timeout).\nIt was down for 3 minutes.',
    );
  });

  it('answers "Invalid payload" when the configured fields are missing, and tells the bot\'s owner', () => {
    const outcome = runWebhook(uptimerobot, jsonRequest({ alert_type_friendly_name: 'Down' }));
    expect(answered(outcome)).toMatchObject({ status: 400, msg: 'Invalid payload' });
    expect(noticeOf(outcome)).toBe(
      'Hi there! Your bot Hook just received a UptimeRobot payload that is missing\n' +
        'some data that Zulip requires. This usually indicates a configuration issue\n' +
        'in your UptimeRobot webhook settings. Please make sure that you set the required parameters\n' +
        'when configuring the UptimeRobot webhook. Contact help@confab.example if you\n' +
        'need further help!',
    );
  });
});

describe('zabbix', () => {
  it('posts the trigger in the topic of the host', () => {
    const body = {
      hostname: 'db1',
      severity: 'High',
      status: 'PROBLEM',
      item: 'Free disk 2%',
      trigger: 'Disk almost full',
      link: 'https://zabbix.example/e/1',
    };
    expect(only(runWebhook(zabbix, jsonRequest(body)))).toEqual({
      topic: 'db1',
      content: 'PROBLEM (High) alert on [db1](https://zabbix.example/e/1):\n* Disk almost full\n* Free disk 2%',
    });
    const outcome = runWebhook(zabbix, jsonRequest({ hostname: 'db1' }));
    expect(answered(outcome).msg).toBe('Invalid payload');
    expect(noticeOf(outcome)).toContain('Your bot Hook just received a Zabbix payload that is missing\n');
  });
});

describe('teamcity', () => {
  const build = {
    buildFullName: 'Shop :: Tests',
    buildStatusUrl: 'https://tc.example/viewLog.html?buildId=9',
    buildNumber: '41',
    buildResult: 'failure',
    buildResultDelta: 'broken',
    buildStatus: 'Tests failed: 3',
    teamcityProperties: [],
  };

  it('posts the build in the topic of its name and branch', () => {
    expect(only(runWebhook(teamcity, jsonRequest({ build: { ...build, branchDisplayName: 'main' } })))).toEqual({
      topic: 'Shop :: Tests (main)',
      content:
        'Shop :: Tests build 41 is broken with status Tests failed: 3! :thumbs_down: See ' +
        '[changes](https://tc.example/viewLog.html?buildId=9&tab=buildChangesDiv) and ' +
        '[build log](https://tc.example/viewLog.html?buildId=9).',
    });
  });

  it('posts nothing for a personal build, nor for a payload of another format, whose format the owner is told', () => {
    const personal = { ...build, teamcityProperties: [{ name: 'env.BUILD_IS_PERSONAL', value: 'true' }] };
    expect(posted(runWebhook(teamcity, jsonRequest({ build: personal })))).toEqual([]);
    const other = runWebhook(teamcity, jsonRequest({ text: 'slack format' }));
    expect(posted(other)).toEqual([]);
    expect(noticeOf(other)).toBe(
      'Hi there! Your bot Hook just received a TeamCity payload in a\n' +
        "format that Zulip doesn't recognize. This usually indicates a\n" +
        'configuration issue in your TeamCity webhook settings. Please make sure\n' +
        'that you set the **Payload Format** option to **Legacy Webhook (JSON)**\n' +
        'in your TeamCity webhook configuration. Contact help@confab.example if you\n' +
        'need further help!',
    );
  });
});

describe('semaphore', () => {
  it('posts a Semaphore 2.0 push with GitHub links in the topic "<project>/<branch>"', () => {
    const body = {
      repository: { url: 'https://github.com/acme/shop' },
      project: { name: 'shop' },
      organization: { name: 'acme' },
      workflow: { id: 'w1' },
      pipeline: { name: 'CI', result: 'passed' },
      revision: {
        reference_type: 'branch',
        sender: { login: 'kim' },
        commit_sha: '0123456789abcdef',
        commit_message: 'Fix cart\n\nlonger text',
        branch: { name: 'main' },
      },
    };
    expect(only(runWebhook(semaphore, jsonRequest(body)))).toEqual({
      topic: 'shop/main',
      content:
        '[CI](https://acme.semaphoreci.com/workflows/w1) pipeline **passed**:\n' +
        '* **Commit**: [(0123456789a)](https://github.com/acme/shop/commit/0123456789abcdef) Fix cart\n' +
        '* **Branch**: main\n* **Author**: [kim](https://github.com/kim)',
    });
  });

  it('posts a Classic build', () => {
    const body = {
      event: 'build',
      branch_name: 'dev',
      project_name: 'shop',
      result: 'failed',
      build_url: 'https://semaphoreci.example/b/3',
      build_number: 3,
      commit: { id: 'abcdef0123456', url: 'https://git.example/c/1', author_email: 'k@x.example', message: 'WIP' },
    };
    expect(only(runWebhook(semaphore, jsonRequest(body)))).toEqual({
      topic: 'shop/dev',
      content:
        '[Build 3](https://semaphoreci.example/b/3) failed:\n* **Commit**: [abcdef01234: WIP](https://git.example/c/1)\n' +
        '* **Author**: k@x.example',
    });
  });
});

describe('netlify', () => {
  it('posts the deploy state named by X-Netlify-Event in the topic of the branch', () => {
    const body = { name: 'site', url: 'https://site.example', branch: 'main', state: 'ready', error_message: null };
    const run = (event: string, payload: unknown = body) =>
      runWebhook(netlify, jsonRequest(payload, { headers: { 'X-Netlify-Event': event } }));
    expect(only(run('deploy_created'))).toEqual({
      topic: 'main',
      content: 'The build [site](https://site.example) on branch main is now ready.',
    });
    expect(only(run('deploy_failed', { ...body, error_message: 'failed: exit 1' })).content).toBe(
      'The build [site](https://site.example) on branch main failed: exit 1',
    );
    expect(answered(runWebhook(netlify, jsonRequest(body)))).toMatchObject({
      status: 400,
      code: 'MISSING_HTTP_EVENT_HEADER',
    });
  });
});

describe('papertrail', () => {
  it('quotes the first four events and links to the rest, in the topic "logs"', () => {
    const events = [1, 2, 3, 4, 5].map((i) => ({
      display_received_at: `Jan 0${i} 10:00:00`,
      source_name: 'web',
      message: `line ${i}`,
    }));
    const payload = {
      saved_search: { name: 'errors', html_search_url: 'https://pt.example/s/1', query: 'error' },
      events,
    };
    const { topic, content } = only(runWebhook(papertrail, formRequest({ payload: JSON.stringify(payload) })));
    expect(topic).toBe('logs');
    expect(content).toBe(
      '[Search for "errors"](https://pt.example/s/1) found **5** matches:\n\n' +
        [1, 2, 3, 4].map((i) => `Jan 0${i} 10:00:00 - web - error:\n\`\`\` quote\nline ${i}\n\`\`\``).join('\n') +
        '\n[See more](https://pt.example/s/1)',
    );
  });
});

describe('wordpress', () => {
  it('posts a published post with placeholders for missing fields', () => {
    expect(
      only(runWebhook(wordpress, formRequest({ hook: 'publish_page', post_type: 'page', post_title: 'About' }))),
    ).toEqual({
      topic: 'WordPress notification',
      content: 'New page published:\n* [About](WordPress post URL)',
    });
    expect(answered(runWebhook(wordpress, formRequest({ hook: 'wp_login' })))).toMatchObject({
      status: 400,
      msg: 'Unknown WordPress webhook action: wp_login',
    });
  });
});
