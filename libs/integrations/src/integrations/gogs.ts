import { unsupportedEvent, type Integration, type Json, type WebhookRequest } from '../framework.js';
import { eventHeader } from '../toolkit/headers.js';
import {
  createBranchMessage,
  isBranchNameNotifiable,
  issueMessage,
  pullRequestMessage,
  pushCommitsMessage,
  releaseMessage,
  topicWithBranch,
  topicWithPrOrIssue,
  topicWithRelease,
  type CommitData,
} from '../toolkit/git.js';
import { pyTruthy } from '../toolkit/pyformat.js';
import { int, str } from '../toolkit/wild.js';

/**
 * Gogs (zerver/webhooks/gogs): pushes (filtered by the URL's `branches`), new branches, pull requests, issues, issue
 * comments and releases, by the X-Gogs-Event header. Gitea, a fork of Gogs, sends the same events (gitea.ts runs
 * `gogsWebhookMain` with its own header and its own pull request text), as Zulip's gitea view reuses gogs's.
 */

/** WildValue's tame(check_bool). */
function bool(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new TypeError('expected a bool');
  return value;
}

/** Python's str.split()[0]: the first whitespace-separated word. */
function firstWord(text: string): string {
  const word = text.trim().split(/\s+/)[0];
  if (word === undefined || word === '') throw new TypeError('no word to take');
  return word;
}

function issueUrl(repoUrl: string, number: number): string {
  return `${repoUrl}/issues/${number}`;
}

function branchOf(ref: string): string {
  return ref.replaceAll('refs/heads/', '');
}

function pushBody(payload: Json): string {
  const commits: CommitData[] = (payload.commits as Json[]).map((commit) => ({
    // A commit's author without a Gogs account is named by the first word of their name.
    name: str(commit.author.username) || firstWord(str(commit.author.name)),
    sha: str(commit.id),
    url: str(commit.url),
    message: str(commit.message),
  }));
  return pushCommitsMessage(
    str(payload.sender.username),
    str(payload.compare_url),
    branchOf(str(payload.ref)),
    commits,
  );
}

function newBranchBody(payload: Json): string {
  const branch = str(payload.ref);
  return createBranchMessage(str(payload.sender.username), `${str(payload.repository.html_url)}/src/${branch}`, branch);
}

/** Gogs's pull request text (format_pull_request_event); Gitea has its own. */
export type PullRequestFormatter = (payload: Json, includeTitle: boolean) => string;

function gogsPullRequestBody(payload: Json, includeTitle: boolean): string {
  const pr = payload.pull_request;
  const merged = bool(pr.merged);
  const userName = merged ? str(pr.merged_by.username) : str(pr.user.username);
  const action = merged ? 'merged' : str(payload.action);
  const branches = action !== 'edited';
  return pullRequestMessage({
    userName,
    action,
    url: str(pr.html_url),
    number: int(pr.number),
    targetBranch: branches ? str(pr.head_branch) : null,
    baseBranch: branches ? str(pr.base_branch) : null,
    title: includeTitle ? str(pr.title) : null,
    assigneeUpdated: pyTruthy(payload.action) && pyTruthy(pr.assignee) ? str(pr.assignee.login) : null,
  });
}

function issuesBody(payload: Json, includeTitle: boolean): string {
  const number = int(payload.issue.number);
  const assignee = payload.issue.assignee;
  const assigneeLogin = pyTruthy(assignee) ? str(assignee.login) : null;
  const action = str(payload.action);
  return issueMessage({
    userName: str(payload.sender.login),
    action,
    url: issueUrl(str(payload.repository.html_url), number),
    number,
    message: str(payload.issue.body),
    assignee: assigneeLogin,
    title: includeTitle ? str(payload.issue.title) : null,
    assigneeUpdated: action === 'assigned' ? assigneeLogin : null,
  });
}

function issueCommentBody(payload: Json, includeTitle: boolean): string {
  const action = str(payload.action);
  const comment = payload.comment;
  const issue = payload.issue;
  const verb = action === 'created' ? '[commented]' : `${action} a [comment]`;
  return issueMessage({
    userName: str(payload.sender.login),
    action: `${verb}(${str(comment.html_url)}) on`,
    url: issueUrl(str(payload.repository.html_url), int(issue.number)),
    number: int(issue.number),
    message: str(comment.body),
    title: includeTitle ? str(issue.title) : null,
  });
}

function releaseBody(payload: Json): string {
  const rel = payload.release;
  return releaseMessage(
    str(rel.author.username),
    str(payload.action),
    str(rel.tag_name),
    str(rel.name),
    str(payload.repository.html_url),
  );
}

/** Zulip's ALL_EVENT_TYPES for Gogs and Gitea. */
export const GOGS_EVENT_TYPES = ['issue_comment', 'issues', 'create', 'pull_request', 'push', 'release'] as const;

/** gogs_webhook_main: the view Gogs and Gitea share, with the provider's header and pull request text. */
export function gogsWebhookMain(
  request: WebhookRequest,
  integrationName: string,
  header: string,
  formatPullRequest: PullRequestFormatter,
) {
  const payload = request.json();
  const repo = str(payload.repository.name);
  const event = eventHeader(request, header, integrationName);
  const includeTitle = request.params.has('topic');
  let topic: string;
  let content: string;
  if (event === 'push') {
    const branch = branchOf(str(payload.ref));
    if (!isBranchNameNotifiable(branch, request.params.get('branches'))) return null;
    content = pushBody(payload);
    topic = topicWithBranch(repo, branch);
  } else if (event === 'create') {
    content = newBranchBody(payload);
    topic = topicWithBranch(repo, str(payload.ref));
  } else if (event === 'pull_request') {
    content = formatPullRequest(payload, includeTitle);
    // The topic numbers the pull request by its id, as Zulip's does.
    topic = topicWithPrOrIssue(repo, 'PR', int(payload.pull_request.id), str(payload.pull_request.title));
  } else if (event === 'issues') {
    content = issuesBody(payload, includeTitle);
    topic = topicWithPrOrIssue(repo, 'issue', int(payload.issue.number), str(payload.issue.title));
  } else if (event === 'issue_comment') {
    content = issueCommentBody(payload, includeTitle);
    topic = topicWithPrOrIssue(repo, 'issue', int(payload.issue.number), str(payload.issue.title));
  } else if (event === 'release') {
    content = releaseBody(payload);
    topic = topicWithRelease(repo, str(payload.release.tag_name), str(payload.release.name));
  } else {
    unsupportedEvent(event);
  }
  return { topic, content, event };
}

export const gogs: Integration = {
  name: 'gogs',
  webhookName: 'Gogs',
  eventTypes: GOGS_EVENT_TYPES,
  handle: (request) => gogsWebhookMain(request, 'Gogs', 'X-Gogs-Event', gogsPullRequestBody),
};
