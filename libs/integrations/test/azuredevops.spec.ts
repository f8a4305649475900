import { azuredevops } from '../src/integrations/azuredevops.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const repository = { name: 'rocket', remoteUrl: 'https://dev.azure.example/acme/_git/rocket' };
const push = {
  eventType: 'git.push',
  resource: {
    repository,
    pushedBy: { displayName: 'Ada Lovelace' },
    refUpdates: [{ name: 'refs/heads/main', oldObjectId: 'a'.repeat(40), newObjectId: 'b'.repeat(40) }],
    commits: [{ commitId: '0123456789abcdef', comment: 'Tighten bolts', author: { name: 'Ada Lovelace' } }],
  },
};
const pr = (eventType: string, extra: Record<string, unknown> = {}) => ({
  eventType,
  resource: {
    repository,
    pullRequestId: 7,
    title: 'Faster engines',
    description: 'Twice the thrust.',
    createdBy: { displayName: 'Ada Lovelace' },
    sourceRefName: 'refs/heads/engines',
    targetRefName: 'refs/heads/main',
    status: 'completed',
    mergeStatus: 'succeeded',
    _links: { web: { href: 'https://dev.azure.example/acme/_git/rocket/pullrequest/7' } },
    ...extra,
  },
  detailedMessage: { markdown: 'Ada updated the source branch' },
});
const prUrl = 'https://dev.azure.example/acme/_git/rocket/pullrequest/7';
const run = (body: unknown, query: Record<string, string> = {}) =>
  runWebhook(azuredevops, jsonRequest(body, { query }));

describe('azuredevops', () => {
  it('posts a push with its compare link, and nothing for a branch the URL leaves out', () => {
    expect(run(push)).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'rocket / main',
          content:
            `Ada Lovelace [pushed](https://dev.azure.example/acme/_git/rocket/branchCompare?baseVersion=GC${'a'.repeat(40)}` +
            `&targetVersion=GC${'b'.repeat(40)}&_a=files) 1 commit to branch main.\n\n` +
            '* Tighten bolts ([0123456789a](https://dev.azure.example/acme/_git/rocket/commit/0123456789abcdef))',
        },
      ],
    });
    expect(run(push, { branches: 'dev' })).toEqual({ kind: 'messages', messages: [] });
  });

  it('posts pull requests created, updated and merged, and no merge that was only attempted', () => {
    expect(run(pr('git.pullrequest.created'))).toMatchObject({
      messages: [
        {
          topic: 'rocket / PR #7 Faster engines',
          content: `Ada Lovelace created [PR #7 Faster engines](${prUrl}) from \`engines\` to \`main\`:\n\n~~~ quote\nTwice the thrust.\n~~~`,
        },
      ],
    });
    expect(run(pr('git.pullrequest.updated'))).toMatchObject({
      messages: [
        {
          content: `Ada Lovelace updated [PR #7 Faster engines](${prUrl}):\n\n~~~ quote\nAda updated the source branch\n~~~`,
        },
      ],
    });
    expect(run(pr('git.pullrequest.merged'))).toMatchObject({
      messages: [{ content: `Ada Lovelace merged [PR #7 Faster engines](${prUrl}) from \`engines\` to \`main\`.` }],
    });
    expect(run(pr('git.pullrequest.merged', { mergeStatus: 'conflicts' }))).toEqual({ kind: 'messages', messages: [] });
  });

  it("answers Zulip's unsupported-event error for an event it does not post", () => {
    expect(run({ eventType: 'workitem.created', resource: {} })).toMatchObject({
      kind: 'error',
      error: {
        status: 200,
        code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
        message: "The 'workitem.created' event isn't currently supported by the AzureDevOps webhook; ignoring",
      },
    });
  });
});
