import { bitbucket3 } from '../src/integrations/bitbucket3.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const self = (href: string) => ({ self: [{ href }] });
const actor = { name: 'ada', displayName: 'Ada Lovelace', links: self('https://bbs.example/users/ada') };
const ada = '[ada](https://bbs.example/users/ada)';
const repository = { name: 'rocket', links: self('https://bbs.example/projects/ACME/repos/rocket/browse') };
const reviewer = (name: string) => ({ user: { name, links: self(`https://bbs.example/users/${name}`) } });
const pullRequest = (extra: Record<string, unknown> = {}) => ({
  id: 5,
  title: 'Faster engines',
  description: 'Twice the thrust.',
  links: self('https://bbs.example/projects/ACME/repos/rocket/pull-requests/5'),
  fromRef: { displayId: 'engines' },
  toRef: { displayId: 'main', repository: { name: 'rocket' } },
  reviewers: [],
  ...extra,
});
const prUrl = 'https://bbs.example/projects/ACME/repos/rocket/pull-requests/5';
const run = (body: unknown, query: Record<string, string> = {}) => runWebhook(bitbucket3, jsonRequest(body, { query }));

describe('bitbucket3', () => {
  it('answers the diagnostics ping, named by the X-Event-Key header', () => {
    expect(
      runWebhook(bitbucket3, jsonRequest({ test: true }, { headers: { 'X-Event-Key': 'diagnostics:ping' } })),
    ).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'Bitbucket Server Ping',
          content: 'Congratulations! The Bitbucket Server webhook was configured successfully!',
        },
      ],
    });
  });

  it("posts one message per ref a push changes, within the URL's branches", () => {
    const body = {
      eventKey: 'repo:refs_changed',
      actor,
      repository,
      changes: [
        { ref: { type: 'BRANCH', displayId: 'main' }, type: 'UPDATE', toHash: 'c'.repeat(40) },
        { ref: { type: 'BRANCH', displayId: 'dev' }, type: 'ADD', toHash: 'd'.repeat(40) },
        { ref: { type: 'TAG', displayId: 'v2' }, type: 'DELETE', toHash: '0'.repeat(40) },
      ],
    };
    expect(run(body)).toMatchObject({
      messages: [
        { topic: 'rocket / main', content: `${ada} pushed to branch main. Head is now ${'c'.repeat(40)}.` },
        { topic: 'rocket / dev', content: `${ada} created dev branch.` },
        { topic: 'rocket', content: `${ada} removed tag v2.` },
      ],
    });
    expect(run(body, { branches: 'dev' })).toMatchObject({
      messages: [{ topic: 'rocket / dev' }, { topic: 'rocket' }],
    });
  });

  it('posts a pull request opened with its reviewers, and a comment deleted', () => {
    expect(
      run({
        eventKey: 'pr:opened',
        actor,
        pullRequest: pullRequest({ reviewers: [reviewer('grace'), reviewer('alan')] }),
      }),
    ).toMatchObject({
      messages: [
        {
          topic: 'rocket / PR #5 Faster engines',
          content:
            `${ada} opened [PR #5](${prUrl}) from \`engines\` to \`main\` (assigned reviewers: ` +
            '[grace](https://bbs.example/users/grace) and [alan](https://bbs.example/users/alan)):\n\n' +
            '~~~ quote\nTwice the thrust.\n~~~',
        },
      ],
    });
    expect(
      run({ eventKey: 'pr:comment:deleted', actor, pullRequest: pullRequest(), comment: { text: 'Nice' } }),
    ).toMatchObject({
      messages: [{ content: `${ada} deleted their comment on [PR #5](${prUrl}):\n\n~~~ quote\n~~Nice~~\n~~~` }],
    });
  });

  it("posts reviewers removed and a review asking for work, with the title under the URL's topic", () => {
    expect(run({ eventKey: 'pr:reviewer:updated', actor, pullRequest: pullRequest() })).toMatchObject({
      messages: [{ content: `${ada} removed all reviewers from [PR #5](${prUrl}).` }],
    });
    expect(
      run({ eventKey: 'pr:reviewer:needs_work', actor, pullRequest: pullRequest() }, { topic: 'reviews' }),
    ).toMatchObject({
      messages: [{ topic: 'reviews', content: `${ada} marked [PR #5 Faster engines](${prUrl}) as "needs work".` }],
    });
  });

  it('posts a fork of the repository', () => {
    const fork = {
      eventKey: 'repo:forked',
      actor,
      repository: {
        name: 'rocket-fork',
        origin: { name: 'rocket' },
        links: self('https://bbs.example/users/ada/repos/rocket-fork/browse'),
      },
    };
    expect(run(fork)).toMatchObject({
      messages: [
        {
          topic: 'rocket',
          content: `User Ada Lovelace(login: ${ada}) forked the repository into [rocket-fork](https://bbs.example/users/ada/repos/rocket-fork/browse).`,
        },
      ],
    });
  });

  it("answers Zulip's unsupported-event error for an event key it does not post", () => {
    expect(run({ eventKey: 'mirror:repo_synchronized', actor })).toMatchObject({
      kind: 'error',
      error: {
        status: 200,
        code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
        message: "The 'mirror:repo_synchronized' event isn't currently supported by the Bitbucket3 webhook; ignoring",
      },
    });
  });
});
