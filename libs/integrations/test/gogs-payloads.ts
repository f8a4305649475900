import { runWebhook, type Integration } from '../src/index.js';
import { jsonRequest } from './support.js';

// Payloads of our own for the Gogs-shaped webhooks (Gogs and Gitea), shaped as their webhook documentation
// describes their events; shared by gogs.spec.ts and gitea.spec.ts.
export const repository = { name: 'kettle', html_url: 'https://git.example.org/brew/kettle' };
export const sender = { login: 'ada', username: 'ada' };

/** The request of a Gogs-shaped webhook under `header` (X-Gogs-Event, X-Gitea-Event), through the framework. */
export function runner(header: string) {
  const run = (integration: Integration, event: string | null, body: unknown, query: Record<string, string> = {}) =>
    runWebhook(integration, jsonRequest(body, { headers: event === null ? {} : { [header]: event }, query }));

  const posted = (
    integration: Integration,
    event: string,
    body: unknown,
    query: Record<string, string> = {},
  ): [string, string] => {
    const outcome = run(integration, event, body, query);
    if (outcome.kind !== 'messages' || outcome.messages.length !== 1) {
      throw new Error(`not one message: ${JSON.stringify(outcome)}`);
    }
    return [outcome.messages[0]!.topic, outcome.messages[0]!.content];
  };
  return { run, posted };
}

export const sha = (n: number) => `${n}f${'0'.repeat(38)}`.slice(0, 40);
export const commit = (n: number, author: { name: string; username: string }) => ({
  id: sha(n),
  url: `https://git.example.org/brew/kettle/commit/${sha(n)}`,
  message: `Descale ${n}\n\nDetails.`,
  author,
});
export const push = (commits: unknown[]) => ({
  ref: 'refs/heads/main',
  compare_url: 'https://git.example.org/brew/kettle/compare/111...222',
  commits,
  repository,
  sender,
});
export const line = (n: number) =>
  `* Descale ${n} ([${sha(n).slice(0, 11)}](https://git.example.org/brew/kettle/commit/${sha(n)}))`;

export const pullRequest = {
  id: 901,
  number: 3,
  title: 'Whistle when done',
  html_url: 'https://git.example.org/brew/kettle/pulls/3',
  merged: false,
  merged_by: null,
  user: { username: 'ada' },
  assignee: null,
  head_branch: 'whistle',
  base_branch: 'main',
  head: { ref: 'whistle' },
  base: { ref: 'main' },
};
