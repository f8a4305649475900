import type { World } from '@confab/devkit';
import { expectError } from './support/expect';
import { newWorld } from './support/system';
import { createHookBot, hookBotMessages, hookRequest, jsonBody, type HookBot } from './support/webhooks';

// The version-control integrations through the gateway (docs/integrations.md): GitLab and Bitbucket's event headers,
// pushes that post one message per branch, Bitbucket's legacy hook and Beanstalk over HTTP Basic (Beanstalk's
// "%40" for "@", its form-encoded payload), Azure DevOps, RhodeCode and Review Board. The payloads are this file's
// own, small ones shaped like the providers' events.
jest.setTimeout(120_000);

let world: World;
let bot: HookBot;

const basic = (user: string, key: string) => `Basic ${Buffer.from(`${user}:${key}`).toString('base64')}`;
const ok = { result: 'success', msg: '' };

beforeAll(async () => {
  world = await newWorld();
  bot = await createHookBot(world, 'commits');
}, 300_000);

describe('GitLab', () => {
  const project = { name: 'rocket', web_url: 'https://gitlab.example/acme/rocket' };

  it('posts a push named by X-Gitlab-Event in "<project> / <branch>", with the client ZulipGitLabWebhook', async () => {
    const answer = await hookRequest(world, 'gitlab', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      body: JSON.stringify({
        user_name: 'Ada Lovelace',
        ref: 'refs/heads/main',
        before: 'a'.repeat(40),
        after: 'b'.repeat(40),
        project,
        commits: [
          {
            id: '0123456789abcdef',
            message: 'Tighten bolts',
            url: 'https://gitlab.example/c/1',
            author: { name: 'Ada Lovelace' },
          },
        ],
      }),
      headers: { 'content-type': 'application/json', 'X-Gitlab-Event': 'Push Hook' },
    });
    expect(answer.body).toEqual(ok);
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      display_recipient: 'Verona',
      subject: 'rocket / main',
      client: 'ZulipGitLabWebhook',
      content:
        `Ada Lovelace [pushed](https://gitlab.example/acme/rocket/-/compare/${'a'.repeat(40)}...${'b'.repeat(40)}) ` +
        '1 commit to branch main.\n\n* Tighten bolts ([0123456789a](https://gitlab.example/c/1))',
    });
  });

  it("puts a merge request under the URL's topic with a link to the project and the title in the text", async () => {
    const answer = await hookRequest(world, 'gitlab', {
      query: { api_key: bot.apiKey, stream: 'Verona', topic: 'launches' },
      body: JSON.stringify({
        user: { name: 'Ada Lovelace' },
        project,
        object_attributes: {
          action: 'merge',
          iid: 4,
          title: 'Faster engines',
          url: 'https://gitlab.example/acme/rocket/-/merge_requests/4',
          source_branch: 'engines',
          target_branch: 'main',
        },
      }),
      headers: { 'content-type': 'application/json', 'X-Gitlab-Event': 'Merge Request Hook' },
    });
    expect(answer.body).toEqual(ok);
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      subject: 'launches',
      content:
        '[[rocket](https://gitlab.example/acme/rocket)] Ada Lovelace merged ' +
        '[MR #4 Faster engines](https://gitlab.example/acme/rocket/-/merge_requests/4) from `engines` to `main`.',
    });
  });

  it("answers Zulip's unsupported-event error with HTTP 200, and posts nothing", async () => {
    const before = (await hookBotMessages(world, bot))[0]!.id;
    const answer = await hookRequest(world, 'gitlab', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      body: JSON.stringify({ object_kind: 'emoji' }),
      headers: { 'content-type': 'application/json', 'X-Gitlab-Event': 'Emoji Hook' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      result: 'error',
      code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
      msg: "The 'Emoji Hook' event isn't currently supported by the GitLab webhook; ignoring",
    });
    expect((await hookBotMessages(world, bot))[0]!.id).toBe(before);
  });
});

describe('Bitbucket Cloud and Server', () => {
  const repository = {
    name: 'rocket',
    full_name: 'acme/rocket',
    links: { html: { href: 'https://bb.example/acme/rocket' } },
  };

  it('posts one message per ref of a Bitbucket Cloud push', async () => {
    const change = (type: string, name: string) => ({
      new: {
        type,
        name,
        target: { hash: 'f'.repeat(40) },
        links: { html: { href: `https://bb.example/acme/rocket/${type}/${name}` } },
      },
      old: null,
      forced: false,
      truncated: false,
      links: { html: { href: `https://bb.example/acme/rocket/branch/${name}` } },
      commits: [],
    });
    const answer = await hookRequest(world, 'bitbucket2', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      ...jsonBody({
        actor: { display_name: 'Ada' },
        repository,
        push: { changes: [change('branch', 'dev'), change('tag', 'v2')] },
      }),
    });
    expect(answer.body).toEqual(ok);
    const messages = await hookBotMessages(world, bot, 2);
    expect(messages.map((m) => [m.subject, m.content, m.client])).toEqual([
      [
        'rocket / dev',
        'Ada [pushed](https://bb.example/acme/rocket/branch/dev) the branch dev.',
        'ZulipBitbucket2Webhook',
      ],
      ['rocket', 'Ada pushed tag [v2](https://bb.example/acme/rocket/tag/v2).', 'ZulipBitbucket2Webhook'],
    ]);
  });

  it("posts a pull request by the X-Event-Key header, and answers Zulip's error without it", async () => {
    const pullrequest = {
      id: 3,
      title: 'Faster engines',
      links: { html: { href: 'https://bb.example/acme/rocket/pull-requests/3' } },
    };
    const answer = await hookRequest(world, 'bitbucket2', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      body: JSON.stringify({ actor: { display_name: 'Ada' }, repository, pullrequest }),
      headers: { 'content-type': 'application/json', 'X-Event-Key': 'pullrequest:approved' },
    });
    expect(answer.body).toEqual(ok);
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      subject: 'rocket / PR #3 Faster engines',
      content: 'Ada approved [PR #3](https://bb.example/acme/rocket/pull-requests/3).',
    });
    const missing = await hookRequest(world, 'bitbucket2', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      ...jsonBody({ actor: { display_name: 'Ada' }, repository, pullrequest }),
    });
    expectError(missing as never, 400, 'MISSING_HTTP_EVENT_HEADER', "Missing the HTTP event header 'X-Event-Key'");
  });

  it("answers Bitbucket Server's ping", async () => {
    const answer = await hookRequest(world, 'bitbucket3', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      body: JSON.stringify({ test: true }),
      headers: { 'content-type': 'application/json', 'X-Event-Key': 'diagnostics:ping' },
    });
    expect(answer.body).toEqual(ok);
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      subject: 'Bitbucket Server Ping',
      content: 'Congratulations! The Bitbucket Server webhook was configured successfully!',
      client: 'ZulipBitbucket3Webhook',
    });
  });
});

describe('over HTTP Basic: Bitbucket’s legacy hook and Beanstalk', () => {
  it('posts a legacy Bitbucket push as the bot of the Basic credentials, and refuses it without them', async () => {
    const body = {
      canon_url: 'https://bb.example/',
      repository: { name: 'rocket', absolute_url: 'acme/rocket/' },
      user: 'ada',
      commits: [{ raw_node: '0123456789abcdef', message: 'Tighten bolts\n', branch: 'main' }],
    };
    const answer = await hookRequest(world, 'bitbucket', {
      query: { stream: 'Verona' },
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', authorization: basic(bot.email, bot.apiKey) },
    });
    expect(answer.body).toEqual(ok);
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      subject: 'rocket / main',
      client: 'ZulipBitbucketWebhook',
      content:
        'ada pushed 1 commit to branch main.\n\n* Tighten bolts ([0123456789a](https://bb.example/acme/rocket/commits/0123456789abcdef))',
    });
    const refused = await hookRequest(world, 'bitbucket', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      ...jsonBody(body),
    });
    expectError(refused as never, 401, 'UNAUTHORIZED', 'Missing authorization header for basic auth');
  });

  it("posts Beanstalk's form-encoded Subversion revision, its email's @ written %40", async () => {
    const payload = {
      author_full_name: 'Grace Hopper',
      revision: 12,
      changeset_url: 'https://acme.beanstalkapp.com/rocket/changesets/12',
      message: 'Move the fins\nand more',
    };
    const answer = await hookRequest(world, 'beanstalk', {
      query: { stream: 'Verona' },
      body: new URLSearchParams({ payload: JSON.stringify(payload) }).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: basic(bot.email.replace('@', '%40'), bot.apiKey),
      },
    });
    expect(answer.body).toEqual(ok);
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      subject: 'svn r12',
      client: 'ZulipBeanstalkWebhook',
      content:
        'Grace Hopper pushed [revision 12](https://acme.beanstalkapp.com/rocket/changesets/12):\n\n> Move the fins',
    });
  });
});

describe('Azure DevOps, RhodeCode and Review Board', () => {
  it('posts an Azure DevOps pull request, and nothing for a merge that was only attempted', async () => {
    const pr = (mergeStatus: string) => ({
      eventType: 'git.pullrequest.merged',
      resource: {
        repository: { name: 'rocket', remoteUrl: 'https://dev.azure.example/acme/_git/rocket' },
        pullRequestId: 7,
        title: 'Faster engines',
        createdBy: { displayName: 'Ada Lovelace' },
        sourceRefName: 'refs/heads/engines',
        targetRefName: 'refs/heads/main',
        status: 'completed',
        mergeStatus,
        _links: { web: { href: 'https://dev.azure.example/acme/_git/rocket/pullrequest/7' } },
      },
    });
    const answer = await hookRequest(world, 'azuredevops', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      ...jsonBody(pr('succeeded')),
    });
    expect(answer.body).toEqual(ok);
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      subject: 'rocket / PR #7 Faster engines',
      client: 'ZulipAzureDevOpsWebhook',
      content:
        'Ada Lovelace merged [PR #7 Faster engines](https://dev.azure.example/acme/_git/rocket/pullrequest/7) from `engines` to `main`.',
    });
    const attempted = await hookRequest(world, 'azuredevops', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      ...jsonBody(pr('conflicts')),
    });
    expect(attempted.body).toEqual(ok);
    expect((await hookBotMessages(world, bot))[0]!.id).toBe(message!.id);
  });

  it('posts a RhodeCode push', async () => {
    const answer = await hookRequest(world, 'rhodecode', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      ...jsonBody({
        event: {
          name: 'repo-push',
          actor: { username: 'ada' },
          repo: { repo_name: 'acme/rocket' },
          push: {
            branches: [{ name: 'main' }],
            commits: [
              {
                raw_id: '0123456789abcdef',
                message: 'Tighten bolts',
                author: 'ada',
                url: 'https://code.example/c/0123',
              },
            ],
          },
        },
      }),
    });
    expect(answer.body).toEqual(ok);
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      subject: 'acme/rocket / main',
      client: 'ZulipRhodeCodeWebhook',
      content: 'ada pushed 1 commit to branch main.\n\n* Tighten bolts ([0123456789a](https://code.example/c/0123))',
    });
  });

  it('posts a Review Board review in the topic of its repository', async () => {
    const answer = await hookRequest(world, 'reviewboard', {
      query: { api_key: bot.apiKey, stream: 'Verona' },
      body: JSON.stringify({
        review_request: {
          id: 4,
          summary: 'Faster engines',
          absolute_url: 'https://rb.example/r/4/',
          links: { repository: { title: 'Rocket' } },
        },
        review: {
          absolute_url: 'https://rb.example/r/4/#review9',
          body_top: 'Ship it!',
          links: { user: { title: 'grace' } },
        },
      }),
      headers: { 'content-type': 'application/json', 'X-ReviewBoard-Event': 'review_published' },
    });
    expect(answer.body).toEqual(ok);
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      subject: 'Rocket',
      client: 'ZulipReviewBoardWebhook',
      content:
        '**grace** [reviewed](https://rb.example/r/4/#review9) [#4: Faster engines](https://rb.example/r/4/):\n\n' +
        '**Review**:\n``` quote\nShip it!\n```',
    });
  });
});
