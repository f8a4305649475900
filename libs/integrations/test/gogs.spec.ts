import { gogs } from '../src/integrations/gogs.js';
import { repository, sender, commit, push, line, pullRequest, runner } from './gogs-payloads.js';

const { run, posted } = runner('X-Gogs-Event');

const issue = { number: 5, title: 'Lid sticks', body: 'It sticks.', assignee: null };

describe('gogs', () => {
  it('lists a push, naming an author without an account by the first word of their name', () => {
    const body = push([
      commit(1, { name: 'Ada Lovelace', username: 'ada' }),
      commit(2, { name: 'Grace Hopper', username: '' }),
    ]);
    expect(posted(gogs, 'push', body)).toEqual([
      'kettle / main',
      'ada [pushed](https://git.example.org/brew/kettle/compare/111...222) 2 commits to branch main. ' +
        `Commits by Grace (1) and ada (1).\n\n${line(1)}\n${line(2)}`,
    ]);
  });

  it('lists at most 20 commits and posts only the branches the URL names', () => {
    const commits = Array.from({ length: 21 }, (_, i) => commit(i + 1, { name: 'Ada', username: 'ada' }));
    const [, content] = posted(gogs, 'push', push(commits), { branches: 'main,dev' });
    expect(content.split('\n').filter((l) => l.startsWith('* '))).toHaveLength(20);
    expect(content.endsWith(`${line(20)}\n[and 1 more commit(s)]`)).toBe(true);
    expect(run(gogs, 'push', push(commits), { branches: 'dev' })).toEqual({ kind: 'messages', messages: [] });
  });

  it('posts a new branch with its link', () => {
    expect(posted(gogs, 'create', { ref: 'descaler', ref_type: 'branch', repository, sender })).toEqual([
      'kettle / descaler',
      'ada created [descaler](https://git.example.org/brew/kettle/src/descaler) branch.',
    ]);
  });

  it('posts an opened and a merged pull request, the topic numbering it by its id', () => {
    expect(posted(gogs, 'pull_request', { action: 'opened', pull_request: pullRequest, repository, sender })).toEqual([
      'kettle / PR #901 Whistle when done',
      'ada opened [PR #3](https://git.example.org/brew/kettle/pulls/3) from `whistle` to `main`.',
    ]);
    const merged = { ...pullRequest, merged: true, merged_by: { username: 'grace' } };
    expect(posted(gogs, 'pull_request', { action: 'closed', pull_request: merged, repository, sender })[1]).toBe(
      'grace merged [PR #3](https://git.example.org/brew/kettle/pulls/3) from `whistle` to `main`.',
    );
  });

  it('posts an issue with its assignee, and a comment on it', () => {
    const assigned = { ...issue, assignee: { login: 'grace' } };
    expect(posted(gogs, 'issues', { action: 'assigned', issue: assigned, repository, sender })).toEqual([
      'kettle / issue #5 Lid sticks',
      'ada assigned grace to [issue #5](https://git.example.org/brew/kettle/issues/5) (assigned to grace):\n\n' +
        '~~~ quote\nIt sticks.\n~~~',
    ]);
    const comment = {
      action: 'created',
      issue,
      comment: { html_url: 'https://git.example.org/brew/kettle/issues/5#issuecomment-9', body: 'Oil the hinge.' },
      repository,
      sender,
    };
    expect(posted(gogs, 'issue_comment', comment, { topic: 'support' })).toEqual([
      'support',
      'ada [commented](https://git.example.org/brew/kettle/issues/5#issuecomment-9) on ' +
        '[issue #5 Lid sticks](https://git.example.org/brew/kettle/issues/5):\n\n~~~ quote\nOil the hinge.\n~~~',
    ]);
  });

  it('posts a published release', () => {
    const release = { tag_name: 'v2', name: 'Second boil', author: { username: 'ada' } };
    expect(posted(gogs, 'release', { action: 'published', release, repository, sender })).toEqual([
      'kettle / v2 Second boil',
      'ada published release [Second boil](https://git.example.org/brew/kettle) for tag v2.',
    ]);
  });

  it('answers 200 for an event it does not support, and 400 without its event header', () => {
    expect(run(gogs, 'fork', { repository, sender })).toMatchObject({
      kind: 'error',
      error: {
        status: 200,
        code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
        message: "The 'fork' event isn't currently supported by the Gogs webhook; ignoring",
      },
    });
    expect(run(gogs, null, push([]))).toMatchObject({
      kind: 'error',
      error: {
        status: 400,
        code: 'MISSING_HTTP_EVENT_HEADER',
        message: "Missing the HTTP event header 'X-Gogs-Event'",
      },
      notice: { kind: 'missing_header', header: 'X-Gogs-Event', integrationName: 'Gogs' },
    });
  });
});
