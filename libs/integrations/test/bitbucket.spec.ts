import { bitbucket } from '../src/integrations/bitbucket.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const repository = { name: 'rocket', absolute_url: 'acme/rocket/' };
const commit = (branch: string, extra: Record<string, unknown> = {}) => ({
  raw_node: '0123456789abcdef',
  message: 'Tighten bolts\n',
  branch,
  ...extra,
});
const run = (body: unknown, query: Record<string, string> = {}) => runWebhook(bitbucket, jsonRequest(body, { query }));

describe('bitbucket (legacy hook)', () => {
  it('posts a push in the topic "<repository> / <branch>", its last commit\'s branch', () => {
    expect(
      run({ canon_url: 'https://bb.example/', repository, user: 'ada', commits: [commit('dev'), commit('main')] }),
    ).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'rocket / main',
          content:
            'ada pushed 2 commits to branch main.\n\n' +
            '* Tighten bolts ([0123456789a](https://bb.example/acme/rocket/commits/0123456789abcdef))\n' +
            '* Tighten bolts ([0123456789a](https://bb.example/acme/rocket/commits/0123456789abcdef))',
        },
      ],
    });
  });

  it('names commits by their author and a push by no user "Someone"', () => {
    expect(
      run({ canon_url: 'https://bb.example/', repository, commits: [commit('main', { author: 'grace' })] }),
    ).toMatchObject({
      messages: [
        { content: expect.stringMatching(/^Someone pushed 1 commit to branch main\. Commits by grace \(1\)\./) },
      ],
    });
  });

  it('posts a push without commits as a force push, and nothing for a branch the URL leaves out', () => {
    expect(run({ canon_url: 'https://bb.example/', repository, user: 'ada', commits: [] })).toMatchObject({
      messages: [{ topic: 'rocket', content: 'ada [force pushed](https://bb.example/acme/rocket/).' }],
    });
    expect(
      run(
        { canon_url: 'https://bb.example/', repository, user: 'ada', commits: [commit('main')] },
        { branches: 'dev' },
      ),
    ).toEqual({
      kind: 'messages',
      messages: [],
    });
  });

  it('answers "Unable to parse request" for a payload that is not a Bitbucket push', () => {
    expect(run({ canon_url: 'https://bb.example/', user: 'ada' })).toMatchObject({
      kind: 'error',
      error: {
        status: 400,
        code: 'ANOMALOUS_WEBHOOK_PAYLOAD',
        message: 'Unable to parse request: Did Bitbucket generate this event?',
      },
    });
  });
});
