import { gitea } from '../src/integrations/gitea.js';
import { repository, sender, commit, push, line, pullRequest, runner } from './gogs-payloads.js';

const { run, posted } = runner('X-Gitea-Event');

describe('gitea', () => {
  it("reads a pull request's branches from head and base, and names its assignee", () => {
    const pr = { ...pullRequest, head_branch: undefined, base_branch: undefined, assignee: { login: 'grace' } };
    expect(posted(gitea, 'pull_request', { action: 'assigned', pull_request: pr, repository, sender })).toEqual([
      'kettle / PR #901 Whistle when done',
      'ada assigned grace to [PR #3](https://git.example.org/brew/kettle/pulls/3) from `whistle` to `main` ' +
        '(assigned to grace).',
    ]);
    expect(posted(gitea, 'pull_request', { action: 'edited', pull_request: pullRequest, repository, sender })[1]).toBe(
      'ada edited [PR #3](https://git.example.org/brew/kettle/pulls/3).',
    );
  });

  it("posts pushes as Gogs's view does, under its own header", () => {
    const body = push([commit(1, { name: 'Ada Lovelace', username: 'ada' })]);
    expect(posted(gitea, 'push', body)).toEqual([
      'kettle / main',
      `ada [pushed](https://git.example.org/brew/kettle/compare/111...222) 1 commit to branch main.\n\n${line(1)}`,
    ]);
    expect(run(gitea, null, body)).toMatchObject({
      kind: 'error',
      error: { code: 'MISSING_HTTP_EVENT_HEADER', message: "Missing the HTTP event header 'X-Gitea-Event'" },
    });
    expect(run(gitea, 'wiki', { repository, sender })).toMatchObject({
      kind: 'error',
      error: { message: "The 'wiki' event isn't currently supported by the Gitea webhook; ignoring" },
    });
  });
});
