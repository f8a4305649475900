import {
  unsupportedEvent,
  type Integration,
  type Json,
  type WebhookMessage,
  type WebhookRequest,
} from '../framework.js';
import { eventHeader } from '../toolkit/headers.js';
import {
  commitCommentMessage,
  forcePushMessage,
  isBranchNameNotifiable,
  issueMessage,
  pullRequestMessage,
  pushCommitsMessage,
  pushTagMessage,
  removeBranchMessage,
  shortSha,
  topicWithBranch,
  topicWithPrOrIssue,
} from '../toolkit/git.js';
import { pyTruthy } from '../toolkit/pyformat.js';
import { endsWithPunctuation, pyStr } from '../toolkit/python.js';
import { int, list, str } from '../toolkit/wild.js';

/**
 * Bitbucket Cloud (zerver/webhooks/bitbucket2): pushes (one message per branch or tag changed), forks, commit
 * comments and statuses, issues, pull requests and their comments, and repository updates. The payload says what
 * happened, except for pull requests, whose action is in the X-Event-Key header.
 */

const PULL_REQUEST_SUPPORTED_ACTIONS = new Set([
  'approved',
  'unapproved',
  'created',
  'updated',
  'rejected',
  'fulfilled',
  'comment_created',
  'comment_updated',
  'comment_deleted',
]);

type Body = (payload: Json, includeTitle: boolean) => string;

/** WildValue's `value[key]`: a field the view insists on. */
function at(value: Json, key: string): Json {
  if (typeof value !== 'object' || value === null || !(key in value)) throw new TypeError(`missing ${key}`);
  return value[key];
}

function has(value: Json, key: string): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && key in value;
}

const href = (value: Json): string => str(at(at(at(value, 'links'), 'html'), 'href'));
const repositoryName = (payload: Json): string => str(at(at(payload, 'repository'), 'name'));

/**
 * get_user_info: since Bitbucket's GDPR changes a user has a display name or a nickname, no username; without
 * either, "Unknown user".
 */
function userInfo(user: Json): string {
  if (has(user, 'display_name')) return str(user.display_name);
  if (has(user, 'nickname')) return str(user.nickname);
  return 'Unknown user';
}

const actor = (payload: Json): string => userInfo(at(payload, 'actor'));

/** get_type: what happened, from the payload's shape (and, for pull requests, the event key). */
function eventType(request: WebhookRequest, payload: Json): string {
  if (has(payload, 'push')) return 'push';
  if (has(payload, 'fork')) return 'fork';
  if (has(payload, 'comment') && has(payload, 'commit')) return 'commit_comment';
  if (has(payload, 'commit_status')) return 'change_commit_status';
  if (has(payload, 'issue')) {
    if (has(payload, 'changes')) return 'issue_updated';
    if (has(payload, 'comment')) return 'issue_commented';
    return 'issue_created';
  }
  const eventKey = eventHeader(request, 'X-Event-Key', 'BitBucket');
  if (has(payload, 'pullrequest')) {
    const match = /^pullrequest:(.*)$/s.exec(eventKey);
    if (match && PULL_REQUEST_SUPPORTED_ACTIONS.has(match[1]!)) return `pull_request_${match[1]}`;
  } else if (eventKey === 'repo:updated') {
    return eventKey;
  }
  return unsupportedEvent(eventKey);
}

/** A change's new state, or its old one when the ref was deleted. */
const changeRef = (change: Json): Json => (pyTruthy(at(change, 'new')) ? change.new : at(change, 'old'));
const isTag = (change: Json): boolean => str(at(changeRef(change), 'type')) === 'tag';

function commitAuthorName(commit: Json): string {
  const author = at(commit, 'author');
  if (has(author, 'user')) return userInfo(author.user);
  return str(at(author, 'raw')).split(/\s+/).filter(Boolean)[0]!;
}

function pushTagBody(payload: Json, change: Json): string {
  const created = pyTruthy(change.new);
  const tag = created ? change.new : change.old;
  return pushTagMessage(actor(payload), str(at(tag, 'name')), href(tag), created ? 'pushed' : 'removed');
}

function pushBody(payload: Json, change: Json): string {
  if (isTag(change)) return pushTagBody(payload, change);
  // No new state: the branch was deleted.
  if (at(change, 'new') === null) return removeBranchMessage(actor(payload), str(at(at(change, 'old'), 'name')));
  const forced = at(change, 'forced');
  if (typeof forced !== 'boolean') throw new TypeError('forced is not a boolean');
  if (forced) {
    return forcePushMessage(
      actor(payload),
      href(change),
      str(at(change.new, 'name')),
      str(at(at(change.new, 'target'), 'hash')),
    );
  }
  const commits = list(at(change, 'commits')).map((commit: Json) => ({
    name: commitAuthorName(commit),
    sha: str(at(commit, 'hash')),
    url: href(commit),
    message: str(at(commit, 'message')),
  }));
  const truncated = at(change, 'truncated');
  if (typeof truncated !== 'boolean') throw new TypeError('truncated is not a boolean');
  return pushCommitsMessage(actor(payload), href(change), str(at(change.new, 'name')), commits, {
    isTruncated: truncated,
  });
}

function pushTopic(payload: Json, change: Json): string {
  if (isTag(change)) return repositoryName(payload);
  return topicWithBranch(repositoryName(payload), str(at(changeRef(change), 'name')));
}

const forkBody: Body = (payload) => {
  const fork = at(payload, 'fork');
  return `${actor(payload)} forked the repository into [${str(at(fork, 'full_name'))}](${href(fork)}).`;
};

const commitCommentBody: Body = (payload) => {
  const comment = at(payload, 'comment');
  const commit = at(comment, 'commit');
  return commitCommentMessage(
    actor(payload),
    `[commented](${href(comment)})`,
    href(commit),
    str(at(commit, 'hash')),
    str(at(at(comment, 'content'), 'raw')),
  );
};

const commitStatusBody: Body = (payload) => {
  const status = at(payload, 'commit_status');
  const commitId = str(at(at(at(status, 'links'), 'commit'), 'href'))
    .split('/')
    .pop()!;
  const commitInfo = `[${shortSha(commitId)}](${href(at(payload, 'repository'))}/commits/${commitId})`;
  return `[System ${str(at(status, 'key'))}](${str(at(status, 'url'))}) changed status of ${commitInfo} to ${str(at(status, 'state'))}.`;
};

function issueBody(payload: Json, action: string, includeTitle: boolean): string {
  const issue = at(payload, 'issue');
  let assignee: string | null = null;
  let message: string | null = null;
  if (action === 'created') {
    if (pyTruthy(at(issue, 'assignee'))) assignee = userInfo(issue.assignee);
    message = str(at(at(issue, 'content'), 'raw'));
  }
  return issueMessage({
    userName: actor(payload),
    action,
    url: href(issue),
    number: int(at(issue, 'id')),
    message,
    assignee,
    title: includeTitle ? str(at(issue, 'title')) : null,
  });
}

const issueCommentedBody: Body = (payload, includeTitle) =>
  issueBody(payload, `[commented](${href(at(payload, 'comment'))}) on`, includeTitle);

const pullRequestActionBody =
  (action: string): Body =>
  (payload, includeTitle) => {
    const pr = at(payload, 'pullrequest');
    const merged = action === 'merged';
    return pullRequestMessage({
      userName: actor(payload),
      action,
      url: href(pr),
      number: int(at(pr, 'id')),
      targetBranch: merged ? str(at(at(at(pr, 'source'), 'branch'), 'name')) : null,
      baseBranch: merged ? str(at(at(at(pr, 'destination'), 'branch'), 'name')) : null,
      title: includeTitle ? str(at(pr, 'title')) : null,
    });
  };

const pullRequestCreatedOrUpdatedBody =
  (action: string): Body =>
  (payload, includeTitle) => {
    const pr = at(payload, 'pullrequest');
    const reviewers = at(pr, 'reviewers');
    const assignee = pyTruthy(reviewers) ? userInfo(list(reviewers)[0]) : null;
    const created = action === 'created';
    return pullRequestMessage({
      userName: actor(payload),
      action,
      url: href(pr),
      number: int(at(pr, 'id')),
      targetBranch: created ? str(at(at(at(pr, 'source'), 'branch'), 'name')) : null,
      baseBranch: created ? str(at(at(at(pr, 'destination'), 'branch'), 'name')) : null,
      message: str(at(pr, 'description')),
      assignee,
      title: includeTitle ? str(at(pr, 'title')) : null,
    });
  };

function pullRequestCommentBody(payload: Json, action: string, includeTitle: boolean): string {
  const pr = at(payload, 'pullrequest');
  return pullRequestMessage({
    userName: actor(payload),
    action: `${action} on`,
    url: href(pr),
    number: int(at(pr, 'id')),
    message: str(at(at(at(payload, 'comment'), 'content'), 'raw')),
    title: includeTitle ? str(at(pr, 'title')) : null,
  });
}

const pullRequestCommentCreatedBody: Body = (payload, includeTitle) =>
  pullRequestCommentBody(payload, `[commented](${href(at(payload, 'comment'))})`, includeTitle);

const pullRequestCommentChangedBody =
  (action: string): Body =>
  (payload, includeTitle) =>
    pullRequestCommentBody(payload, `${action} a [comment](${href(at(payload, 'comment'))})`, includeTitle);

const REPO_CHANGES = ['website', 'name', 'links', 'language', 'full_name', 'description'];

/** One line per changed property ("changed the name of the **repo** repo from **a** to **b**."). */
const repoUpdatedBody: Body = (payload) => {
  const repoName = repositoryName(payload);
  const who = actor(payload);
  const changes = at(payload, 'changes');
  let body = '';
  for (const key of REPO_CHANGES) {
    const change = at(changes, key);
    const newValue = at(change, 'new');
    const oldValue = at(change, 'old');
    const name = key === 'full_name' ? 'full name' : key;
    if (!pyTruthy(newValue)) continue;
    const newText = pyStr(newValue);
    const message = pyTruthy(oldValue)
      ? `${who} changed the ${name} of the **${repoName}** repo from **${pyStr(oldValue)}** to **${newText}**`
      : `${who} changed the ${name} of the **${repoName}** repo to **${newText}**`;
    body += `${endsWithPunctuation(newText) ? message : `${message}.`}\n`;
  }
  return body;
};

const BODIES: Record<string, Body> = {
  fork: forkBody,
  commit_comment: commitCommentBody,
  change_commit_status: commitStatusBody,
  issue_updated: (payload, includeTitle) => issueBody(payload, 'updated', includeTitle),
  issue_created: (payload, includeTitle) => issueBody(payload, 'created', includeTitle),
  issue_commented: issueCommentedBody,
  pull_request_created: pullRequestCreatedOrUpdatedBody('created'),
  pull_request_updated: pullRequestCreatedOrUpdatedBody('updated'),
  pull_request_approved: pullRequestActionBody('approved'),
  pull_request_unapproved: pullRequestActionBody('unapproved'),
  pull_request_fulfilled: pullRequestActionBody('merged'),
  pull_request_rejected: pullRequestActionBody('rejected'),
  pull_request_comment_created: pullRequestCommentCreatedBody,
  pull_request_comment_updated: pullRequestCommentChangedBody('updated'),
  pull_request_comment_deleted: pullRequestCommentChangedBody('deleted'),
  'repo:updated': repoUpdatedBody,
};

function topicOf(payload: Json, type: string): string {
  if (type.startsWith('pull_request')) {
    const pr = at(payload, 'pullrequest');
    return topicWithPrOrIssue(repositoryName(payload), 'PR', int(at(pr, 'id')), str(at(pr, 'title')));
  }
  if (type.startsWith('issue')) {
    const issue = at(payload, 'issue');
    return topicWithPrOrIssue(repositoryName(payload), 'issue', int(at(issue, 'id')), str(at(issue, 'title')));
  }
  return repositoryName(payload);
}

export const bitbucket2: Integration = {
  name: 'bitbucket2',
  webhookName: 'Bitbucket2',
  // Bitbucket escapes the URL's parameters once more than it should.
  unquoteUrlParameters: true,
  eventTypes: ['push', ...Object.keys(BODIES)],
  handle(request) {
    const payload = request.json();
    const type = eventType(request, payload);
    if (type === 'push') {
      const branches = request.params.get('branches');
      const messages: WebhookMessage[] = [];
      for (const change of list(at(at(payload, 'push'), 'changes')) as Json[]) {
        // A branch the URL's `branches` leaves out is not posted; tags always are.
        if (!isTag(change) && !isBranchNameNotifiable(str(at(changeRef(change), 'name')), branches)) continue;
        messages.push({ topic: pushTopic(payload, change), content: pushBody(payload, change), event: type });
      }
      return messages;
    }
    const topic = topicOf(payload, type);
    const content = BODIES[type]!(payload, request.params.has('topic'));
    return { topic, content, event: type };
  },
};
