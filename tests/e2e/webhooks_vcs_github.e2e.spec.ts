import type { World } from '@confab/devkit';
import { expectError } from './support/expect';
import { newWorld } from './support/system';
import { createHookBot, hookBotMessages, hookRequest, jsonBody, type HookBot } from './support/webhooks';

// GitHub, Gitea and Gogs through the gateway (docs/integrations.md): what the bot posts, read back through
// GET /messages with its sending client, and the URL's parameters these integrations read (branches,
// ignore_private_repositories, topic, the event filters). The payloads are this file's own, small ones shaped like
// the providers' events.
jest.setTimeout(120_000);

let world: World;
let bot: HookBot;

beforeAll(async () => {
  world = await newWorld();
  bot = await createHookBot(world, 'vcs');
}, 300_000);

const repository = {
  name: 'widgets',
  full_name: 'acme/widgets',
  html_url: 'https://github.com/acme/widgets',
  private: false,
};
const sender = { login: 'ada', html_url: 'https://github.com/ada', username: 'ada' };
const sha1 = '1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b';
const sha2 = '2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c';

const githubPush = (ref: string, extra: Record<string, unknown> = {}) => ({
  ref,
  compare: 'https://github.com/acme/widgets/compare/1a2b...2b3c',
  deleted: false,
  forced: false,
  commits: [
    {
      id: sha1,
      url: `https://github.com/acme/widgets/commit/${sha1}`,
      message: 'Paint it',
      author: { name: 'Ada', username: 'ada' },
    },
    {
      id: sha2,
      url: `https://github.com/acme/widgets/commit/${sha2}`,
      message: 'Dry it',
      author: { name: 'Grace Hopper' },
    },
  ],
  repository,
  sender,
  ...extra,
});

function github(event: string | null, body: unknown, query: Record<string, string> = {}, path = 'github') {
  const { body: text, headers } = jsonBody(body);
  return hookRequest(world, path, {
    query: { api_key: bot.apiKey, stream: 'Verona', ...query },
    body: text,
    headers: event === null ? headers : { ...headers, 'X-GitHub-Event': event },
  });
}

/** The newest message of the bot's, after checking that a request posted nothing (its id is unchanged). */
async function newestId(): Promise<number> {
  return ((await hookBotMessages(world, bot))[0]?.id as number | undefined) ?? 0;
}

describe('GitHub', () => {
  it('posts a push to "repo / branch" with its commits and committers, as ZulipGitHubWebhook', async () => {
    const answer = await github('push', githubPush('refs/heads/main'));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      display_recipient: 'Verona',
      subject: 'widgets / main',
      client: 'ZulipGitHubWebhook',
      content:
        'ada [pushed](https://github.com/acme/widgets/compare/1a2b...2b3c) 2 commits to branch main. ' +
        'Commits by Grace Hopper (1) and ada (1).\n\n' +
        `* Paint it ([1a2b3c4d5e6](https://github.com/acme/widgets/commit/${sha1}))\n` +
        `* Dry it ([2b3c4d5e6f7](https://github.com/acme/widgets/commit/${sha2}))`,
    });
  });

  it('posts pushes only to the branches of the URL, and nothing of a private repository when asked', async () => {
    const before = await newestId();
    const filtered = await github('push', githubPush('refs/heads/experiment'), { branches: 'main,release' });
    expect(filtered.body).toEqual({ result: 'success', msg: '' });
    const privateRepo = await github(
      'push',
      githubPush('refs/heads/main', { repository: { ...repository, private: true } }),
      { ignore_private_repositories: 'true' },
    );
    expect(privateRepo.body).toEqual({ result: 'success', msg: '' });
    expect(await newestId()).toBe(before);

    const listed = await github('push', githubPush('refs/heads/release'), { branches: 'main,release' });
    expect(listed.body.result).toBe('success');
    const [message] = await hookBotMessages(world, bot);
    expect(message!.id).toBeGreaterThan(before);
    expect(message!.subject).toBe('widgets / release');
  });

  it("filters by Zulip's event names, and puts the title in the text under the URL's topic", async () => {
    const pullRequest = {
      number: 4,
      title: 'Blue widgets',
      html_url: 'https://github.com/acme/widgets/pull/4',
      body: null,
      assignee: null,
      head: { label: 'ada:blue' },
      base: { label: 'acme:main' },
    };
    const body = { action: 'opened', pull_request: pullRequest, repository, sender };
    const before = await newestId();
    const excluded = await github('pull_request', body, { exclude_events: '["opened_pull_request"]' });
    expect(excluded.body).toEqual({ result: 'success', msg: '' });
    expect(await newestId()).toBe(before);

    await github('pull_request', body, { topic: 'reviews', only_events: '["*_pull_request"]' });
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      subject: 'reviews',
      client: 'ZulipGitHubWebhook',
      content:
        'ada opened [PR #4 Blue widgets](https://github.com/acme/widgets/pull/4) from `ada:blue` to `acme:main`.',
    });
  });

  it('answers an unsupported event with 200 and Zulip’s error, and a missing X-GitHub-Event with 400', async () => {
    const unsupported = await github('workflow_job', { action: 'queued', repository, sender });
    expect(unsupported.status).toBe(200);
    expect(unsupported.body).toMatchObject({
      result: 'error',
      code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
      msg: "The 'workflow_job:queued' event isn't currently supported by the GitHub webhook; ignoring",
      webhook_name: 'GitHub',
      event_type: 'workflow_job:queued',
    });
    const missing = await github(null, githubPush('refs/heads/main'));
    expectError(missing as never, 400, 'MISSING_HTTP_EVENT_HEADER', "Missing the HTTP event header 'X-GitHub-Event'");
  });

  it('posts a sponsorship through the GitHub Sponsors URL in the topic "sponsors"', async () => {
    const answer = await github(
      'created',
      { action: 'created', sponsorship: { tier: { name: '$3 a month' } }, sender },
      {},
      'githubsponsors',
    );
    expect(answer.body).toEqual({ result: 'success', msg: '' });
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      subject: 'sponsors',
      client: 'ZulipGitHubWebhook',
      content: 'ada subscribed for $3 a month.',
    });
  });
});

const forge = { name: 'kettle', html_url: 'https://git.example.org/brew/kettle' };
const forgePush = {
  ref: 'refs/heads/main',
  compare_url: 'https://git.example.org/brew/kettle/compare/1a2b...2b3c',
  commits: [
    {
      id: sha1,
      url: `https://git.example.org/brew/kettle/commit/${sha1}`,
      message: 'Descale',
      author: { name: 'Ada L', username: 'ada' },
    },
  ],
  repository: forge,
  sender,
};

function forgeHook(path: 'gitea' | 'gogs', event: string, body: unknown, query: Record<string, string> = {}) {
  const { body: text, headers } = jsonBody(body);
  const header = path === 'gitea' ? 'X-Gitea-Event' : 'X-Gogs-Event';
  return hookRequest(world, path, {
    query: { api_key: bot.apiKey, stream: 'Verona', ...query },
    body: text,
    headers: { ...headers, [header]: event },
  });
}

describe('Gitea', () => {
  it('posts a push and an assigned pull request, as ZulipGiteaWebhook', async () => {
    expect((await forgeHook('gitea', 'push', forgePush)).body).toEqual({ result: 'success', msg: '' });
    const [pushed] = await hookBotMessages(world, bot);
    expect(pushed).toMatchObject({
      subject: 'kettle / main',
      client: 'ZulipGiteaWebhook',
      content:
        'ada [pushed](https://git.example.org/brew/kettle/compare/1a2b...2b3c) 1 commit to branch main.\n\n' +
        `* Descale ([1a2b3c4d5e6](https://git.example.org/brew/kettle/commit/${sha1}))`,
    });

    const pullRequest = {
      id: 77,
      number: 2,
      title: 'Whistle',
      html_url: 'https://git.example.org/brew/kettle/pulls/2',
      merged: false,
      user: { username: 'ada' },
      assignee: { login: 'grace' },
      head: { ref: 'whistle' },
      base: { ref: 'main' },
    };
    await forgeHook('gitea', 'pull_request', {
      action: 'assigned',
      pull_request: pullRequest,
      repository: forge,
      sender,
    });
    const [assigned] = await hookBotMessages(world, bot);
    expect(assigned).toMatchObject({
      subject: 'kettle / PR #77 Whistle',
      client: 'ZulipGiteaWebhook',
      content:
        'ada assigned grace to [PR #2](https://git.example.org/brew/kettle/pulls/2) from `whistle` to `main` ' +
        '(assigned to grace).',
    });
  });
});

describe('Gogs', () => {
  it('posts an issue comment under the URL’s topic, and pushes only to the branches of the URL, as ZulipGogsWebhook', async () => {
    const comment = {
      action: 'created',
      issue: { number: 5, title: 'Lid sticks' },
      comment: { html_url: 'https://git.example.org/brew/kettle/issues/5#issuecomment-9', body: 'Oil it.' },
      repository: forge,
      sender,
    };
    expect((await forgeHook('gogs', 'issue_comment', comment, { topic: 'kettle support' })).body.result).toBe(
      'success',
    );
    const [message] = await hookBotMessages(world, bot);
    expect(message).toMatchObject({
      subject: 'kettle support',
      client: 'ZulipGogsWebhook',
      content:
        'ada [commented](https://git.example.org/brew/kettle/issues/5#issuecomment-9) on ' +
        '[issue #5 Lid sticks](https://git.example.org/brew/kettle/issues/5):\n\n~~~ quote\nOil it.\n~~~',
    });

    const filtered = await forgeHook('gogs', 'push', forgePush, { branches: 'dev' });
    expect(filtered.body).toEqual({ result: 'success', msg: '' });
    expect(await newestId()).toBe(message!.id);
  });
});
