import { rhodecode } from '../src/integrations/rhodecode.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const event = (push: Record<string, unknown>) => ({
  event: { name: 'repo-push', actor: { username: 'ada' }, repo: { repo_name: 'acme/rocket' }, push },
});
const commit = (rawId: string, message: string) => ({
  raw_id: rawId,
  message,
  author: 'Ada Lovelace <ada@acme.test>',
  url: `https://code.example/acme/rocket/changeset/${rawId}`,
});
const run = (body: unknown, query: Record<string, string> = {}) => runWebhook(rhodecode, jsonRequest(body, { query }));

describe('rhodecode', () => {
  it('posts a push in the topic "<repository> / <branch>"', () => {
    expect(
      run(event({ branches: [{ name: 'main' }], commits: [commit('0123456789abcdef', 'Tighten bolts')] })),
    ).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'acme/rocket / main',
          content:
            'ada pushed 1 commit to branch main. Commits by Ada Lovelace <ada@acme.test> (1).\n\n' +
            '* Tighten bolts ([0123456789a](https://code.example/acme/rocket/changeset/0123456789abcdef))',
        },
      ],
    });
  });

  it("reads a deleted branch's name from its commit, and filters by the URL's branches", () => {
    const deleted = event({ branches: [], commits: [commit('delete_branch=>dev', 'Deleted branch dev')] });
    expect(run(deleted)).toMatchObject({ messages: [{ topic: 'acme/rocket / dev' }] });
    expect(run(deleted, { branches: 'main' })).toEqual({ kind: 'messages', messages: [] });
  });

  it("answers Zulip's unsupported-event error for an event it does not post", () => {
    expect(run({ event: { name: 'pullrequest-create' } })).toMatchObject({
      kind: 'error',
      error: {
        status: 200,
        code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
        message: "The 'pullrequest-create' event isn't currently supported by the RhodeCode webhook; ignoring",
      },
    });
  });
});
