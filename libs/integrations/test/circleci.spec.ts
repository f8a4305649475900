import { circleci } from '../src/integrations/circleci.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const run = (body: unknown, query: Record<string, string> = {}) => runWebhook(circleci, jsonRequest(body, { query }));

const sha = '0123456789abcdef0123456789abcdef01234567';
const github = {
  vcs: {
    provider_name: 'github',
    target_repository_url: 'https://github.com/acme/shop',
    revision: sha,
    branch: 'main',
    commit: { subject: 'Fix the cart', author: { name: 'Ada Lovelace' } },
  },
  number: 42,
};

describe('circleci', () => {
  it('answers its ping in the topic "Test event"', () => {
    expect(run({ type: 'ping', webhook: { name: 'Chat' } })).toEqual({
      kind: 'messages',
      messages: [{ stream: 'test', topic: 'Test event', content: "Webhook 'Chat' test event successful." }],
    });
  });

  it('posts a completed job of a GitHub pipeline, with its commit, in the topic of the project', () => {
    const body = {
      type: 'job-completed',
      project: { name: 'shop' },
      pipeline: github,
      job: { name: 'test', status: 'failed' },
    };
    expect(run(body)).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'shop',
          content:
            '\nJob `test` within Pipeline #42 has failed.\n\nTriggered on ' +
            `[\`0123456789a: Fix the cart\`](https://github.com/acme/shop/commit/${sha}) on branch \`main\` by Ada Lovelace.\n\n`,
        },
      ],
    });
    expect(run(body, { exclude_events: '["job-*"]' })).toEqual({ kind: 'messages', messages: [] });
  });

  it('posts a workflow of a Bitbucket pipeline triggered by hand or by a tag', () => {
    const bitbucket = {
      ...github,
      vcs: {
        ...github.vcs,
        provider_name: 'bitbucket',
        target_repository_url: 'https://bitbucket.org/acme/shop',
        commit: { subject: null },
      },
    };
    const workflow = { name: 'deploy', url: 'https://app.circleci.com/pipelines/x/42', status: 'success' };
    const body = { type: 'workflow-completed', project: { name: 'shop' }, pipeline: bitbucket, workflow };
    expect(run(body)).toMatchObject({
      messages: [
        {
          content:
            '\nWorkflow [`deploy`](https://app.circleci.com/pipelines/x/42) within Pipeline #42 has succeeded.\n\n' +
            `Triggered on \`main\`'s HEAD on [0123456789a](https://bitbucket.org/acme/shop/commits/${sha}).\n\n`,
        },
      ],
    });
    const tagged = { ...body, pipeline: { ...bitbucket, vcs: { ...bitbucket.vcs, branch: null } } };
    expect(run(tagged)).toMatchObject({
      messages: [
        {
          content: expect.stringContaining(
            `Triggered on the latest tag on [0123456789a](https://bitbucket.org/acme/shop/commits/${sha}).`,
          ),
        },
      ],
    });
  });

  it('posts a GitLab pipeline from its trigger parameters, and an unknown status as None', () => {
    const pipeline = {
      number: 3,
      trigger: { type: 'gitlab' },
      trigger_parameters: {
        gitlab: {
          commit_title: 'Add docs',
          checkout_sha: sha,
          commit_author_name: 'Grace',
          web_url: 'https://gitlab.com/acme/shop',
          branch: 'dev',
        },
      },
    };
    const body = {
      type: 'job-completed',
      project: { name: 'shop' },
      pipeline,
      job: { name: 'lint', status: 'on_hold' },
    };
    expect(run(body)).toMatchObject({
      messages: [
        {
          content:
            '\nJob `lint` within Pipeline #3 None.\n\nTriggered on ' +
            `[\`0123456789a: Add docs\`](https://gitlab.com/acme/shop/-/commit/${sha}) on branch \`dev\` by Grace.\n\n`,
        },
      ],
    });
    const other = { ...body, pipeline: { ...pipeline, trigger: { type: 'api' } } };
    expect(run(other)).toMatchObject({
      kind: 'error',
      error: { message: "Projects using this version control system provider aren't supported", status: 400 },
    });
  });
});
