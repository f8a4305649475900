import { bitbucket2 } from '../src/integrations/bitbucket2.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const repository = {
  name: 'rocket',
  full_name: 'acme/rocket',
  links: { html: { href: 'https://bb.example/acme/rocket' } },
};
const actor = { display_name: 'Ada Lovelace' };
const html = (href: string) => ({ html: { href } });
const run = (body: unknown, options: { query?: Record<string, string>; key?: string } = {}) =>
  runWebhook(
    bitbucket2,
    jsonRequest(body, { query: options.query, headers: options.key ? { 'X-Event-Key': options.key } : {} }),
  );

const branchChange = (name: string, extra: Record<string, unknown> = {}) => ({
  new: { type: 'branch', name, target: { hash: 'f'.repeat(40) } },
  old: { type: 'branch', name },
  forced: false,
  truncated: false,
  links: html(`https://bb.example/acme/rocket/branch/${name}`),
  commits: [
    {
      hash: '0123456789abcdef',
      message: 'Tighten bolts\n',
      author: { raw: 'Grace Hopper <grace@acme.test>' },
      links: html('https://bb.example/acme/rocket/commits/0123456789abcdef'),
    },
  ],
  ...extra,
});
const tagChange = {
  new: { type: 'tag', name: 'v2', links: html('https://bb.example/acme/rocket/commits/tag/v2') },
  old: null,
};

const pullrequest = {
  id: 3,
  title: 'Faster engines',
  description: 'Twice the thrust.',
  links: html('https://bb.example/acme/rocket/pull-requests/3'),
  source: { branch: { name: 'engines' } },
  destination: { branch: { name: 'main' } },
  reviewers: [{ nickname: 'grace' }],
};

describe('bitbucket2', () => {
  it('posts one message per branch or tag a push changes', () => {
    expect(run({ actor, repository, push: { changes: [branchChange('main'), tagChange] } })).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'rocket / main',
          content:
            'Ada Lovelace [pushed](https://bb.example/acme/rocket/branch/main) 1 commit to branch main. ' +
            'Commits by Grace (1).\n\n* Tighten bolts ([0123456789a](https://bb.example/acme/rocket/commits/0123456789abcdef))',
        },
        {
          stream: 'test',
          topic: 'rocket',
          content: 'Ada Lovelace pushed tag [v2](https://bb.example/acme/rocket/commits/tag/v2).',
        },
      ],
    });
  });

  it("leaves out the branches the URL's branches does not name, and posts force pushes and deletions", () => {
    const body = { actor, repository, push: { changes: [branchChange('main'), tagChange] } };
    expect(run(body, { query: { branches: 'dev' } })).toMatchObject({ messages: [{ topic: 'rocket' }] });
    expect(run({ actor, repository, push: { changes: [branchChange('main', { forced: true })] } })).toMatchObject({
      messages: [
        {
          content: `Ada Lovelace [force pushed](https://bb.example/acme/rocket/branch/main) to branch main. Head is now ${'f'.repeat(40)}.`,
        },
      ],
    });
    expect(run({ actor, repository, push: { changes: [branchChange('dev', { new: null })] } })).toMatchObject({
      messages: [{ topic: 'rocket / dev', content: 'Ada Lovelace deleted branch dev.' }],
    });
    expect(run({ actor, repository, push: { changes: [] } })).toEqual({ kind: 'messages', messages: [] });
  });

  it('posts a pull request created, with its first reviewer, by the X-Event-Key', () => {
    expect(run({ actor, repository, pullrequest }, { key: 'pullrequest:created' })).toMatchObject({
      messages: [
        {
          topic: 'rocket / PR #3 Faster engines',
          content:
            'Ada Lovelace created [PR #3](https://bb.example/acme/rocket/pull-requests/3) from `engines` to `main` ' +
            '(assigned to grace):\n\n~~~ quote\nTwice the thrust.\n~~~',
        },
      ],
    });
    expect(
      run({ actor, repository, pullrequest }, { key: 'pullrequest:fulfilled', query: { topic: 't' } }),
    ).toMatchObject({
      messages: [
        {
          topic: 't',
          content:
            'Ada Lovelace merged [PR #3 Faster engines](https://bb.example/acme/rocket/pull-requests/3) from `engines` to `main`.',
        },
      ],
    });
  });

  it('posts an issue comment and a repository rename', () => {
    const issue = { id: 8, title: 'Leak', links: html('https://bb.example/acme/rocket/issues/8') };
    const comment = { links: html('https://bb.example/acme/rocket/issues/8#comment-1') };
    expect(run({ actor, repository, issue, comment })).toMatchObject({
      messages: [
        {
          topic: 'rocket / issue #8 Leak',
          content:
            'Ada Lovelace [commented](https://bb.example/acme/rocket/issues/8#comment-1) on [issue #8](https://bb.example/acme/rocket/issues/8).',
        },
      ],
    });
    const unchanged = { new: null, old: null };
    const changes = {
      website: unchanged,
      name: { old: 'rocket', new: 'rocket2' },
      links: unchanged,
      language: { old: '', new: 'rust' },
      full_name: unchanged,
      description: unchanged,
    };
    expect(run({ actor: { nickname: 'ada' }, repository, changes }, { key: 'repo:updated' })).toMatchObject({
      messages: [
        {
          topic: 'rocket',
          content:
            'ada changed the name of the **rocket** repo from **rocket** to **rocket2**.\n' +
            'ada changed the language of the **rocket** repo to **rust**.\n',
        },
      ],
    });
  });

  it("answers Zulip's unsupported-event error for an event it does not post", () => {
    expect(run({ actor, repository, pullrequest }, { key: 'pullrequest:changes_request_created' })).toMatchObject({
      kind: 'error',
      error: {
        status: 200,
        code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
        message:
          "The 'pullrequest:changes_request_created' event isn't currently supported by the Bitbucket2 webhook; ignoring",
      },
    });
  });
});
