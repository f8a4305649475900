import type { Integration, Json } from '../framework.js';
import { pullRequestMessage } from '../toolkit/git.js';
import { pyTruthy } from '../toolkit/pyformat.js';
import { int, str } from '../toolkit/wild.js';
import { gogsWebhookMain } from './gogs.js';

/**
 * Gitea (zerver/webhooks/gitea): Gitea is a fork of Gogs and sends the same events, so this is Gogs's view
 * (gogs.ts) with the X-Gitea-Event header and Gitea's pull request text: its branches are `head.ref` and `base.ref`,
 * and the assignee is named. Zulip declares no event types for it.
 */

function giteaPullRequestBody(payload: Json, includeTitle: boolean): string {
  const pr = payload.pull_request;
  const assignee = pr.assignee;
  const merged = pr.merged;
  if (typeof merged !== 'boolean') throw new TypeError('expected a bool');
  const userName = merged ? str(pr.merged_by.username) : str(pr.user.username);
  const action = merged ? 'merged' : str(payload.action);
  let targetBranch: string | null = null;
  let baseBranch: string | null = null;
  if (action !== 'edited') {
    if ('head' in pr) targetBranch = str(pr.head.ref);
    if ('base' in pr) baseBranch = str(pr.base.ref);
  }
  const assigneeLogin = pyTruthy(assignee) ? str(assignee.login) : null;
  return pullRequestMessage({
    userName,
    action,
    url: str(pr.html_url),
    number: int(pr.number),
    targetBranch,
    baseBranch,
    title: includeTitle ? str(pr.title) : null,
    assignee: assigneeLogin,
    assigneeUpdated: action === 'assigned' ? assigneeLogin : null,
  });
}

export const gitea: Integration = {
  name: 'gitea',
  webhookName: 'Gitea',
  handle: (request) => gogsWebhookMain(request, 'Gitea', 'X-Gitea-Event', giteaPullRequestBody),
};
