import { github, githubsponsors } from '../src/integrations/github/index.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

// Payloads of our own, shaped as GitHub's webhook documentation describes its events.
const repository = {
  name: 'widgets',
  full_name: 'acme/widgets',
  html_url: 'https://github.com/acme/widgets',
  private: false,
};
const sender = { login: 'ada', html_url: 'https://github.com/ada' };

const run = (event: string | null, body: unknown, query: Record<string, string> = {}) =>
  runWebhook(github, jsonRequest(body, { headers: event === null ? {} : { 'X-GitHub-Event': event }, query }));

/** The one message posted, as [topic, content]. */
function posted(event: string, body: unknown, query: Record<string, string> = {}): [string, string] {
  const outcome = run(event, body, query);
  if (outcome.kind !== 'messages' || outcome.messages.length !== 1) {
    throw new Error(`not one message: ${JSON.stringify(outcome)}`);
  }
  return [outcome.messages[0]!.topic, outcome.messages[0]!.content];
}

function commit(n: number, author: { name: string; username?: string }, message = `Change ${n}`) {
  const id = `${String(n).padStart(2, '0')}ab${'c'.repeat(36)}`;
  return { id, url: `https://github.com/acme/widgets/commit/${id}`, message, author };
}

function push(commits: unknown[], extra: Record<string, unknown> = {}) {
  return {
    ref: 'refs/heads/main',
    compare: 'https://github.com/acme/widgets/compare/aaa...bbb',
    commits,
    deleted: false,
    forced: false,
    repository,
    sender,
    ...extra,
  };
}

const pullRequest = {
  number: 12,
  title: 'Add the blue widget',
  html_url: 'https://github.com/acme/widgets/pull/12',
  body: 'It is blue.',
  assignee: null,
  merged: false,
  head: { label: 'ada:blue' },
  base: { label: 'acme:main' },
};

describe('github', () => {
  it('lists the commits of a push, with their committers when others wrote some', () => {
    const body = push([
      commit(1, { name: 'Ada Lovelace', username: 'ada' }, 'Paint it blue\n\nLonger text.'),
      commit(2, { name: 'Grace Hopper', username: 'grace' }),
      commit(3, { name: 'Grace Hopper', username: 'grace' }),
      commit(4, { name: 'Alan Turing' }),
    ]);
    const sha = (n: number) => `${String(n).padStart(2, '0')}ab${'c'.repeat(7)}`;
    const line = (n: number, text: string) =>
      `* ${text} ([${sha(n)}](https://github.com/acme/widgets/commit/${String(n).padStart(2, '0')}ab${'c'.repeat(36)}))`;
    expect(posted('push', body)).toEqual([
      'widgets / main',
      'ada [pushed](https://github.com/acme/widgets/compare/aaa...bbb) 4 commits to branch main. ' +
        'Commits by grace (2), Alan Turing (1) and ada (1).\n\n' +
        [line(1, 'Paint it blue'), line(2, 'Change 2'), line(3, 'Change 3'), line(4, 'Change 4')].join('\n'),
    ]);
  });

  it('lists at most 20 commits of a push and counts the rest', () => {
    const commits = Array.from({ length: 25 }, (_, i) => commit(i + 1, { name: 'Ada', username: 'ada' }));
    const [topic, content] = posted('push', push(commits));
    expect(topic).toBe('widgets / main');
    const lines = content.split('\n');
    expect(lines[0]).toBe('ada [pushed](https://github.com/acme/widgets/compare/aaa...bbb) 25 commits to branch main.');
    expect(lines.filter((l) => l.startsWith('* '))).toHaveLength(20);
    expect(lines[lines.length - 2]).toBe(
      `* Change 20 ([20abccccccc](https://github.com/acme/widgets/commit/20ab${'c'.repeat(36)}))`,
    );
    expect(lines[lines.length - 1]).toBe('[and 5 more commit(s)]');
  });

  it('posts a push only for the branches the URL names', () => {
    const body = push([commit(1, { name: 'Ada', username: 'ada' })]);
    expect(run('push', body, { branches: 'release, main' })).toMatchObject({ kind: 'messages', messages: [{}] });
    expect(run('push', body, { branches: 'release,dev' })).toEqual({ kind: 'messages', messages: [] });
  });

  it('tells of a deleted branch, a force push without commits and a pushed tag', () => {
    expect(posted('push', push([], { deleted: true, ref: 'refs/heads/old' }))).toEqual([
      'widgets / old',
      'ada [deleted](https://github.com/acme/widgets/compare/aaa...bbb) the branch old.',
    ]);
    expect(posted('push', push([], { forced: true }))).toEqual([
      'widgets / main',
      'ada [force pushed](https://github.com/acme/widgets/compare/aaa...bbb) the branch main.',
    ]);
    expect(posted('push', push([], { ref: 'refs/tags/v2.0', created: true }))).toEqual([
      'widgets',
      'ada pushed tag v2.0.',
    ]);
  });

  it('tells of a created branch and a deleted tag', () => {
    expect(posted('create', { ref: 'feature-x', ref_type: 'branch', repository, sender })).toEqual([
      'widgets',
      'ada created branch feature-x.',
    ]);
    expect(posted('delete', { ref: 'v0.1', ref_type: 'tag', repository, sender })).toEqual([
      'widgets',
      'ada deleted tag v0.1.',
    ]);
  });

  it('posts an opened pull request with its branches and description, in the topic of the PR', () => {
    const body = { action: 'opened', pull_request: pullRequest, repository, sender };
    expect(posted('pull_request', body)).toEqual([
      'widgets / PR #12 Add the blue widget',
      'ada opened [PR #12](https://github.com/acme/widgets/pull/12) from `ada:blue` to `acme:main`:\n\n' +
        '~~~ quote\nIt is blue.\n~~~',
    ]);
    // With a topic of the URL's own, the title goes into the text.
    expect(posted('pull_request', body, { topic: 'reviews' })).toEqual([
      'reviews',
      'ada opened [PR #12 Add the blue widget](https://github.com/acme/widgets/pull/12) from `ada:blue` to ' +
        '`acme:main`:\n\n~~~ quote\nIt is blue.\n~~~',
    ]);
  });

  it('tells a merged pull request from one closed without merging, and names who was assigned', () => {
    const merged = { action: 'closed', pull_request: { ...pullRequest, merged: true }, repository, sender };
    expect(posted('pull_request', merged)[1]).toBe('ada merged [PR #12](https://github.com/acme/widgets/pull/12).');
    const closed = { action: 'closed', pull_request: pullRequest, repository, sender };
    expect(posted('pull_request', closed)[1]).toBe(
      'ada closed without merge [PR #12](https://github.com/acme/widgets/pull/12).',
    );
    const assigned = {
      action: 'assigned',
      assignee: { login: 'grace' },
      pull_request: pullRequest,
      repository,
      sender,
    };
    expect(posted('pull_request', assigned)[1]).toBe(
      'ada assigned grace to [PR #12](https://github.com/acme/widgets/pull/12).',
    );
  });

  it('posts an opened issue and a comment on a pull request', () => {
    const issue = {
      number: 7,
      title: 'Widgets squeak',
      html_url: 'https://github.com/acme/widgets/issues/7',
      body: 'They squeak when turned.',
    };
    expect(posted('issues', { action: 'opened', issue, repository, sender })).toEqual([
      'widgets / issue #7 Widgets squeak',
      'ada opened [issue #7](https://github.com/acme/widgets/issues/7):\n\n~~~ quote\nThey squeak when turned.\n~~~',
    ]);
    const comment = {
      action: 'created',
      issue: { ...issue, html_url: 'https://github.com/acme/widgets/pull/7', pull_request: {} },
      comment: { html_url: 'https://github.com/acme/widgets/pull/7#issuecomment-1', body: 'Oil them.' },
      repository,
      sender,
    };
    expect(posted('issue_comment', comment)).toEqual([
      'widgets / PR #7 Widgets squeak',
      'ada [commented](https://github.com/acme/widgets/pull/7#issuecomment-1) on ' +
        '[PR #7](https://github.com/acme/widgets/pull/7):\n\n~~~ quote\nOil them.\n~~~',
    ]);
  });

  it('posts discussions in the topic "repo discussion #n: title"', () => {
    const discussion = {
      number: 9,
      title: 'Which colour next?',
      html_url: 'https://github.com/acme/widgets/discussions/9',
      body: 'Green or red?',
      category: { name: 'Ideas' },
    };
    expect(posted('discussion', { action: 'created', discussion, repository, sender })).toEqual([
      'widgets discussion #9: Which colour next?',
      'ada created [discussion #9](https://github.com/acme/widgets/discussions/9) in Ideas:\n\n' +
        '~~~ quote\n### Which colour next?\nGreen or red?\n~~~',
    ]);
    const moved = { action: 'category_changed', changes: { category: { from: { name: 'General' } } }, discussion };
    expect(posted('discussion', { ...moved, repository, sender }, { topic: 'ideas' })).toEqual([
      'ideas',
      'ada changed the category of [discussion #9 Which colour next?](https://github.com/acme/widgets/discussions/9) ' +
        'from General to Ideas.',
    ]);
    const comment = {
      action: 'created',
      discussion,
      comment: { html_url: 'https://github.com/acme/widgets/discussions/9#discussioncomment-3', body: 'Green.' },
      repository,
      sender,
    };
    expect(posted('discussion_comment', comment)[1]).toBe(
      'ada [commented](https://github.com/acme/widgets/discussions/9#discussioncomment-3) on ' +
        '[discussion #9](https://github.com/acme/widgets/discussions/9):\n\n~~~ quote\nGreen.\n~~~',
    );
  });

  it('posts nothing for an edited comment whose text did not change', () => {
    const body = {
      action: 'edited',
      changes: { body: { from: 'Same.' } },
      issue: { number: 7, title: 'Widgets squeak', html_url: 'https://github.com/acme/widgets/issues/7' },
      comment: { html_url: 'https://github.com/acme/widgets/issues/7#issuecomment-2', body: 'Same.' },
      repository,
      sender,
    };
    expect(run('issue_comment', body)).toEqual({ kind: 'messages', messages: [] });
  });

  it('posts a published release, by its name or else its tag', () => {
    const release = { tag_name: 'v1.0', name: null, html_url: 'https://github.com/acme/widgets/releases/tag/v1.0' };
    expect(posted('release', { action: 'published', release, repository, sender })).toEqual([
      'widgets',
      'ada published release [v1.0](https://github.com/acme/widgets/releases/tag/v1.0) for tag v1.0.',
    ]);
    expect(
      posted('release', { action: 'published', release: { ...release, name: 'First' }, repository, sender })[1],
    ).toBe('ada published release [First](https://github.com/acme/widgets/releases/tag/v1.0) for tag v1.0.');
  });

  it("answers the ping in the repository's topic, or the organization's without a repository", () => {
    expect(posted('ping', { zen: 'Keep it simple.', repository, sender })).toEqual([
      'widgets',
      'GitHub webhook has been successfully configured by ada.',
    ]);
    expect(posted('ping', { zen: 'Keep it simple.', organization: { login: 'acme' }, sender })).toEqual([
      'acme',
      'GitHub webhook has been successfully configured by ada.',
    ]);
  });

  it('drops the events of a private repository when the URL asks', () => {
    const body = push([commit(1, { name: 'Ada', username: 'ada' })], { repository: { ...repository, private: true } });
    expect(run('push', body, { ignore_private_repositories: 'true' })).toEqual({ kind: 'messages', messages: [] });
    expect(run('push', body)).toMatchObject({ kind: 'messages', messages: [{ topic: 'widgets / main' }] });
    expect(run('push', body, { ignore_private_repositories: 'maybe' })).toMatchObject({
      kind: 'error',
      error: { status: 400, message: 'ignore_private_repositories is not valid JSON' },
    });
    expect(run('push', body, { ignore_private_repositories: '1' })).toMatchObject({
      kind: 'error',
      error: { status: 400, message: 'ignore_private_repositories is not a boolean' },
    });
  });

  it("matches only_events against Zulip's event names", () => {
    const body = push([commit(1, { name: 'Ada', username: 'ada' })]);
    expect(run('push', body, { only_events: '["push_tags"]' })).toEqual({ kind: 'messages', messages: [] });
    expect(run('push', body, { only_events: '["push_*"]' })).toMatchObject({ kind: 'messages', messages: [{}] });
  });

  it('posts nothing for the events Zulip ignores, and answers 200 for those it does not support', () => {
    expect(run('label', { action: 'created' })).toEqual({ kind: 'messages', messages: [] });
    expect(run('pull_request', { action: 'labeled' })).toEqual({ kind: 'messages', messages: [] });
    expect(run('workflow_run', { action: 'completed', repository, sender })).toMatchObject({
      kind: 'error',
      error: {
        status: 200,
        code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
        message: "The 'workflow_run:completed' event isn't currently supported by the GitHub webhook; ignoring",
      },
    });
    expect(run('team', { action: 'archived', team: { name: 'core' }, sender })).toMatchObject({
      kind: 'error',
      error: { status: 200, code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE' },
    });
  });

  it("answers a request without X-GitHub-Event with Zulip's error, and tells the owner", () => {
    expect(run(null, push([]))).toMatchObject({
      kind: 'error',
      error: {
        status: 400,
        code: 'MISSING_HTTP_EVENT_HEADER',
        message: "Missing the HTTP event header 'X-GitHub-Event'",
      },
      notice: { kind: 'missing_header', header: 'X-GitHub-Event', integrationName: 'GitHub' },
    });
  });

  it('words a sponsorship about to end, on the GitHub Sponsors URL', () => {
    const body = {
      action: 'pending_cancellation',
      effective_date: '2031-03-04T00:00:00+00:00',
      sponsorship: { tier: { name: '$3 a month' } },
      sender,
    };
    const outcome = runWebhook(
      githubsponsors,
      jsonRequest(body, { headers: { 'X-GitHub-Event': 'pending_cancellation' } }),
    );
    expect(outcome).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'sponsors',
          content: "ada's $3 a month subscription will be cancelled on March 04, 2031.",
        },
      ],
    });
  });

  it("declares Zulip's event names as its event types", () => {
    expect(github.eventTypes).toContain('opened_pull_request');
    expect(github.eventTypes).toContain('push_commits');
    expect(github.eventTypes).toHaveLength(46);
  });
});
