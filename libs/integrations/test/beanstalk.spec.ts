import { beanstalk } from '../src/integrations/beanstalk.js';
import { runWebhook } from '../src/index.js';
import { formRequest } from './support.js';

const gitPush = {
  uri: 'git@acme.beanstalkapp.com:/rocket.git',
  branch: 'main',
  ref: 'refs/heads/main',
  before: 'a'.repeat(40),
  after: 'b'.repeat(40),
  pusher_name: 'Ada Lovelace',
  repository: { name: 'rocket', url: 'https://acme.beanstalkapp.com/rocket' },
  commits: [
    {
      id: '0123456789abcdef',
      message: 'Tighten bolts',
      url: 'https://acme.beanstalkapp.com/rocket/changesets/0123',
      author: { name: 'Ada Lovelace' },
    },
  ],
};
const run = (payload: unknown, query: Record<string, string> = {}) =>
  runWebhook(
    beanstalk,
    formRequest({ payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }, { query }),
  );

describe('beanstalk', () => {
  it("posts a Git push from the form's payload", () => {
    expect(run(gitPush)).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'rocket / main',
          content:
            'Ada Lovelace [pushed](https://acme.beanstalkapp.com/rocket) 1 commit to branch main.\n\n' +
            '* Tighten bolts ([0123456789a](https://acme.beanstalkapp.com/rocket/changesets/0123))',
        },
      ],
    });
    expect(run(gitPush, { branches: 'dev' })).toEqual({ kind: 'messages', messages: [] });
  });

  it('posts a Subversion revision with the first line of its message', () => {
    const revision = {
      author_full_name: 'Grace Hopper',
      revision: 12,
      changeset_url: 'https://acme.beanstalkapp.com/rocket/changesets/12',
      message: 'Move the fins\nand more',
    };
    expect(run(revision)).toMatchObject({
      messages: [
        {
          topic: 'svn r12',
          content:
            'Grace Hopper pushed [revision 12](https://acme.beanstalkapp.com/rocket/changesets/12):\n\n> Move the fins',
        },
      ],
    });
  });

  it("answers Zulip's errors for a missing or malformed payload", () => {
    expect(runWebhook(beanstalk, formRequest({}))).toMatchObject({
      kind: 'error',
      error: { status: 400, message: "Missing 'payload' argument" },
    });
    expect(run('{not json')).toMatchObject({
      kind: 'error',
      error: { status: 400, message: 'payload is not valid JSON' },
    });
  });
});
