import { gitlab } from '../src/integrations/gitlab/index.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const project = { name: 'rocket', web_url: 'https://gitlab.example/acme/rocket' };
const user = { name: 'Ada Lovelace', username: 'ada' };
const run = (event: string, body: unknown, query: Record<string, string> = {}) =>
  runWebhook(gitlab, jsonRequest(body, { query, headers: { 'X-Gitlab-Event': event } }));

const push = {
  user_name: 'Ada Lovelace',
  ref: 'refs/heads/main',
  before: 'a'.repeat(40),
  after: 'b'.repeat(40),
  project,
  commits: [
    {
      id: '1234567890abcdef',
      message: 'Fix the launch\n\nlonger text',
      url: 'https://gitlab.example/c/1',
      author: { name: 'Ada Lovelace' },
    },
    { id: 'fedcba0987654321', message: 'Add tests', url: 'https://gitlab.example/c/2', author: { name: 'Grace' } },
  ],
};

const mergeRequest = (action: string, extra: Record<string, unknown> = {}) => ({
  user,
  project,
  object_attributes: {
    action,
    iid: 4,
    title: 'Faster engines',
    url: 'https://gitlab.example/acme/rocket/-/merge_requests/4',
    source_branch: 'engines',
    target_branch: 'main',
    description: 'Twice the thrust.',
    ...extra,
  },
});

describe('gitlab', () => {
  it('posts a push with its commits in the topic "<project> / <branch>"', () => {
    expect(run('Push Hook', push)).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'rocket / main',
          content:
            `Ada Lovelace [pushed](https://gitlab.example/acme/rocket/-/compare/${'a'.repeat(40)}...${'b'.repeat(40)}) ` +
            '2 commits to branch main. Commits by Ada Lovelace (1) and Grace (1).\n\n' +
            '* Fix the launch ([1234567890a](https://gitlab.example/c/1))\n' +
            '* Add tests ([fedcba09876](https://gitlab.example/c/2))',
        },
      ],
    });
  });

  it('posts nothing for a push to a branch the URL leaves out, and names a deleted branch', () => {
    expect(run('Push Hook', push, { branches: 'release, dev' })).toEqual({ kind: 'messages', messages: [] });
    expect(run('Push Hook', push, { branches: 'dev,main' })).toMatchObject({ messages: [{ topic: 'rocket / main' }] });
    expect(run('Push Hook', { ...push, after: '0'.repeat(40), commits: [] })).toMatchObject({
      messages: [{ content: 'Ada Lovelace deleted branch main.' }],
    });
  });

  it('posts tags pushed and removed', () => {
    const tag = { user_name: 'Ada Lovelace', ref: 'refs/tags/v1.0', project };
    expect(run('Tag Push Hook', { ...tag, checkout_sha: 'abc' })).toMatchObject({
      messages: [{ topic: 'rocket', content: 'Ada Lovelace pushed tag v1.0.' }],
    });
    expect(run('Tag Push Hook', { ...tag, checkout_sha: null })).toMatchObject({
      messages: [{ content: 'Ada Lovelace removed tag v1.0.' }],
    });
  });

  it("quotes a new issue's description without its hidden comments", () => {
    const body = {
      user,
      project,
      assignees: [{ name: 'Grace Hopper' }, { name: 'Alan Turing' }],
      object_attributes: {
        action: 'open',
        iid: 9,
        title: 'Fuel leak',
        url: 'https://gitlab.example/acme/rocket/-/issues/9',
        description: 'It drips. <!-- internal\nnote -->\n\n',
      },
    };
    expect(run('Issue Hook', body)).toMatchObject({
      messages: [
        {
          topic: 'rocket / issue #9 Fuel leak',
          content:
            'Ada Lovelace created [issue #9](https://gitlab.example/acme/rocket/-/issues/9) ' +
            '(assigned to Grace Hopper and Alan Turing):\n\n~~~ quote\nIt drips.\n~~~',
        },
      ],
    });
  });

  it('posts merge requests opened and merged', () => {
    expect(run('Merge Request Hook', mergeRequest('open'))).toMatchObject({
      messages: [
        {
          topic: 'rocket / MR #4 Faster engines',
          content:
            'Ada Lovelace created [MR #4](https://gitlab.example/acme/rocket/-/merge_requests/4) from `engines` to `main`:' +
            '\n\n~~~ quote\nTwice the thrust.\n~~~',
        },
      ],
    });
    expect(run('Merge Request Hook', mergeRequest('merge'))).toMatchObject({
      messages: [
        {
          content:
            'Ada Lovelace merged [MR #4](https://gitlab.example/acme/rocket/-/merge_requests/4) from `engines` to `main`.',
        },
      ],
    });
    expect(run('Merge Request Hook', mergeRequest('approval'))).toMatchObject({
      messages: [
        {
          content:
            'Ada Lovelace added their approval for [MR #4](https://gitlab.example/acme/rocket/-/merge_requests/4).',
        },
      ],
    });
  });

  it("leaves the title out of a merge request's topic on use_merge_request_title=false", () => {
    expect(run('Merge Request Hook', mergeRequest('close'), { use_merge_request_title: 'false' })).toMatchObject({
      messages: [{ topic: 'rocket / MR #4 ' }],
    });
    expect(run('Merge Request Hook', mergeRequest('close'), { use_merge_request_title: 'no' })).toMatchObject({
      kind: 'error',
      error: { status: 400, message: 'use_merge_request_title is not valid JSON' },
    });
  });

  it("with the URL's topic, names the project and the title in the text", () => {
    expect(run('Merge Request Hook', mergeRequest('close'), { topic: 'launches' })).toMatchObject({
      messages: [
        {
          topic: 'launches',
          content:
            '[[rocket](https://gitlab.example/acme/rocket)] Ada Lovelace closed ' +
            '[MR #4 Faster engines](https://gitlab.example/acme/rocket/-/merge_requests/4).',
        },
      ],
    });
  });

  it('posts a comment on a merge request', () => {
    const body = {
      user,
      project,
      object_attributes: { noteable_type: 'MergeRequest', url: 'https://gitlab.example/n/1', note: 'Looks good' },
      merge_request: { iid: 4, title: 'Faster engines', url: 'https://gitlab.example/acme/rocket/-/merge_requests/4' },
    };
    expect(run('Note Hook', body)).toMatchObject({
      messages: [
        {
          topic: 'rocket / MR #4 Faster engines',
          content:
            'Ada Lovelace [commented](https://gitlab.example/n/1) on ' +
            '[MR #4](https://gitlab.example/acme/rocket/-/merge_requests/4):\n\n~~~ quote\nLooks good\n~~~',
        },
      ],
    });
  });

  it('lists the jobs of a pipeline', () => {
    const body = {
      project,
      object_attributes: { id: 77, status: 'success', ref: 'main' },
      builds: [
        { id: 5, name: 'test', status: 'success', artifacts_file: { filename: null } },
        { id: 6, name: 'pack', status: 'success', artifacts_file: { filename: 'rocket.zip' } },
      ],
    };
    const jobs = 'https://gitlab.example/acme/rocket/-/jobs';
    expect(run('Pipeline Hook', body)).toMatchObject({
      messages: [
        {
          topic: 'rocket / main',
          content:
            '[Pipeline (77)](https://gitlab.example/acme/rocket/-/pipelines/77) changed status to success with build(s):\n' +
            `* [test](${jobs}/5) - success\n* [pack](${jobs}/6) - success\n` +
            `  * built artifact: *rocket.zip* [[Browse](${jobs}/6/artifacts/browse)|[Download](${jobs}/6/artifacts/download)].`,
        },
      ],
    });
  });

  it('names the event of a System Hook by its payload', () => {
    expect(run('System Hook', { ...push, event_name: 'push' })).toMatchObject({
      messages: [{ topic: 'rocket / main' }],
    });
  });

  it("answers Zulip's errors for an unsupported event and a missing event header", () => {
    expect(run('Wiki Page Hook', { user, project, object_attributes: { action: 'delete' } })).toMatchObject({
      kind: 'error',
      error: {
        status: 200,
        code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
        message: "The 'Wiki Page Hook delete' event isn't currently supported by the GitLab webhook; ignoring",
      },
    });
    expect(runWebhook(gitlab, jsonRequest(push))).toMatchObject({
      kind: 'error',
      error: {
        status: 400,
        code: 'MISSING_HTTP_EVENT_HEADER',
        message: "Missing the HTTP event header 'X-GitLab-Event'",
      },
    });
  });
});
