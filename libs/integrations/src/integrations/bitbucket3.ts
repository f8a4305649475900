import { unsupportedEvent, type Integration, type Json, type WebhookMessage } from '../framework.js';
import { eventHeader } from '../toolkit/headers.js';
import {
  commitCommentMessage,
  createBranchMessage,
  isBranchNameNotifiable,
  pullRequestMessage,
  pushTagMessage,
  removeBranchMessage,
  topicWithBranch,
  topicWithPrOrIssue,
} from '../toolkit/git.js';
import { endsWithPunctuation } from '../toolkit/python.js';
import { int, list, str, strOrNone } from '../toolkit/wild.js';

/**
 * Bitbucket Server (zerver/webhooks/bitbucket3): the diagnostics ping, commit comments, forks, renames, pushes (one
 * message per branch or tag changed) and pull requests with their reviews and comments. The event is the payload's
 * eventKey, or the X-Event-Key header (the ping has only that).
 */

interface Post {
  topic: string;
  body: string;
}

type Handler = (payload: Json, branches: string | undefined, includeTitle: string | undefined) => Post[];

/** WildValue's `value[key]`: a field the view insists on. */
function at(value: Json, key: string | number): Json {
  if (typeof value !== 'object' || value === null || !(key in value)) throw new TypeError(`missing ${key}`);
  return value[key];
}

const selfHref = (value: Json): string => str(at(at(at(at(value, 'links'), 'self'), 0), 'href'));
const userName = (payload: Json): string => {
  const actor = at(payload, 'actor');
  return `[${str(at(actor, 'name'))}](${selfHref(actor)})`;
};

const pingHandler: Handler = (_payload, _branches, includeTitle) => [
  {
    topic: includeTitle ? includeTitle : 'Bitbucket Server Ping',
    body: 'Congratulations! The Bitbucket Server webhook was configured successfully!',
  },
];

const repoCommentHandler =
  (action: string): Handler =>
  (payload) => {
    const repository = at(payload, 'repository');
    const sha = str(at(payload, 'commit'));
    // The repository's link ends in "browse"; its commits are beside it.
    const commitUrl = `${selfHref(repository).slice(0, -'browse'.length)}commits/${sha}`;
    let message = str(at(at(payload, 'comment'), 'text'));
    if (action === 'deleted their comment') message = `~~${message}~~`;
    return [
      {
        topic: str(at(repository, 'name')),
        body: commitCommentMessage(userName(payload), action, commitUrl, sha, message),
      },
    ];
  };

const repoForkedHandler: Handler = (payload) => {
  const repository = at(payload, 'repository');
  const body =
    `User ${str(at(at(payload, 'actor'), 'displayName'))}(login: ${userName(payload)}) forked the repository into ` +
    `[${str(at(repository, 'name'))}](${selfHref(repository)}).`;
  return [{ topic: str(at(at(repository, 'origin'), 'name')), body }];
};

const repoModifiedHandler: Handler = (payload) => {
  const newName = str(at(at(payload, 'new'), 'name'));
  const oldName = str(at(at(payload, 'old'), 'name'));
  // A rename is the one change Bitbucket Server tells of.
  const body =
    `${userName(payload)} changed the name of the **${oldName}** repo from **${oldName}** to **${newName}**` +
    (endsWithPunctuation(newName) ? '' : '.');
  return [{ topic: newName, body }];
};

function pushBranchData(payload: Json, change: Json): Post {
  const type = str(at(change, 'type'));
  const repoName = str(at(at(payload, 'repository'), 'name'));
  const user = userName(payload);
  const branch = str(at(at(change, 'ref'), 'displayId'));
  const head = str(at(change, 'toHash'));
  let body: string;
  if (type === 'ADD') body = createBranchMessage(user, null, branch);
  else if (type === 'UPDATE') body = `${user} pushed to branch ${branch}. Head is now ${head}.`;
  else if (type === 'DELETE') body = removeBranchMessage(user, branch);
  else return unsupportedEvent(`${str(at(payload, 'eventKey'))}.${type}`);
  return { topic: topicWithBranch(repoName, branch), body };
}

function pushTagData(payload: Json, change: Json): Post {
  const type = str(at(change, 'type'));
  const repoName = str(at(at(payload, 'repository'), 'name'));
  const tag = str(at(at(change, 'ref'), 'displayId'));
  let action: string;
  if (type === 'ADD') action = 'pushed';
  else if (type === 'DELETE') action = 'removed';
  else return unsupportedEvent(`${str(at(payload, 'eventKey'))}.${type}`);
  return { topic: repoName, body: pushTagMessage(userName(payload), tag, null, action) };
}

const repoPushHandler: Handler = (payload, branches) => {
  const posts: Post[] = [];
  for (const change of list(at(payload, 'changes')) as Json[]) {
    const targetType = str(at(at(change, 'ref'), 'type'));
    if (targetType === 'BRANCH') {
      const branch = str(at(at(change, 'ref'), 'displayId'));
      if (branches && !isBranchNameNotifiable(branch, branches)) continue;
      posts.push(pushBranchData(payload, change));
    } else if (targetType === 'TAG') {
      posts.push(pushTagData(payload, change));
    } else {
      return unsupportedEvent(`${str(at(payload, 'eventKey'))}.${targetType}`);
    }
  }
  return posts;
};

/** The reviewers as links, "a, b and c"; null when there are none. */
function reviewersString(pr: Json): string | null {
  const reviewers = (list(at(pr, 'reviewers')) as Json[]).map((reviewer) => {
    const user = at(reviewer, 'user');
    return `[${str(at(user, 'name'))}](${selfHref(user)})`;
  });
  if (reviewers.length === 0) return null;
  if (reviewers.length === 1) return reviewers[0]!;
  return `${reviewers.slice(0, -1).join(', ')} and ${reviewers[reviewers.length - 1]}`;
}

const prFacts = (payload: Json, includeTitle: string | undefined) => {
  const pr = at(payload, 'pullRequest');
  return {
    pr,
    userName: userName(payload),
    url: selfHref(pr),
    number: int(at(pr, 'id')),
    title: includeTitle ? str(at(pr, 'title')) : null,
  };
};

function prOpenedOrModifiedBody(payload: Json, action: string, includeTitle: string | undefined): string {
  const { pr, ...facts } = prFacts(payload, includeTitle);
  const opened = action === 'opened';
  return pullRequestMessage({
    ...facts,
    action,
    targetBranch: opened ? str(at(at(pr, 'fromRef'), 'displayId')) : null,
    baseBranch: opened ? str(at(at(pr, 'toRef'), 'displayId')) : null,
    message: strOrNone(pr.description),
    reviewer: reviewersString(pr),
  });
}

function prMergedBody(payload: Json, action: string, includeTitle: string | undefined): string {
  const { pr, ...facts } = prFacts(payload, includeTitle);
  return pullRequestMessage({
    ...facts,
    action,
    targetBranch: str(at(at(pr, 'fromRef'), 'displayId')),
    baseBranch: str(at(at(pr, 'toRef'), 'displayId')),
  });
}

function prNeedsWorkBody(payload: Json, includeTitle: string | undefined): string {
  const pr = at(payload, 'pullRequest');
  const link = includeTitle ? `PR #${int(at(pr, 'id'))} ${str(at(pr, 'title'))}` : `PR #${int(at(pr, 'id'))}`;
  return `${userName(payload)} marked [${link}](${selfHref(pr)}) as "needs work".`;
}

function prReassignedBody(payload: Json, includeTitle: string | undefined): string {
  const pr = at(payload, 'pullRequest');
  const user = userName(payload);
  const number = int(at(pr, 'id'));
  const url = selfHref(pr);
  const reviewers = reviewersString(pr);
  if (!reviewers) {
    if (!includeTitle) return `${user} removed all reviewers from [PR #${number}](${url}).`;
    const title = str(at(pr, 'title'));
    return `${user} removed all reviewers from [PR #${number} ${title}](${url})${endsWithPunctuation(title) ? '' : '.'}`;
  }
  if (!includeTitle) return `${user} reassigned [PR #${number}](${url}) to ${reviewers}.`;
  return `${user} reassigned [PR #${number} ${str(at(pr, 'title'))}](${url}) to ${reviewers}.`;
}

function prTopic(pr: Json): string {
  return topicWithPrOrIssue(
    str(at(at(at(pr, 'toRef'), 'repository'), 'name')),
    'PR',
    int(at(pr, 'id')),
    str(at(pr, 'title')),
  );
}

const prHandler =
  (action: string): Handler =>
  (payload, _branches, includeTitle) => {
    const pr = at(payload, 'pullRequest');
    const topic = prTopic(pr);
    let body: string;
    if (action === 'opened' || action === 'modified') body = prOpenedOrModifiedBody(payload, action, includeTitle);
    else if (action === 'merged') body = prMergedBody(payload, action, includeTitle);
    else if (action === 'needs_work') body = prNeedsWorkBody(payload, includeTitle);
    else if (action === 'reviewers_updated') body = prReassignedBody(payload, includeTitle);
    else body = pullRequestMessage({ ...prFacts(payload, includeTitle), action });
    return [{ topic, body }];
  };

const prCommentHandler =
  (action: string): Handler =>
  (payload, _branches, includeTitle) => {
    const { pr, ...facts } = prFacts(payload, includeTitle);
    const topic = prTopic(pr);
    let message = str(at(at(payload, 'comment'), 'text'));
    if (action === 'deleted their comment on') message = `~~${message}~~`;
    return [{ topic, body: pullRequestMessage({ ...facts, action, message }) }];
  };

const HANDLERS: Record<string, Handler> = {
  'diagnostics:ping': pingHandler,
  'repo:comment:added': repoCommentHandler('commented'),
  'repo:comment:edited': repoCommentHandler('edited their comment'),
  'repo:comment:deleted': repoCommentHandler('deleted their comment'),
  'repo:forked': repoForkedHandler,
  'repo:modified': repoModifiedHandler,
  'repo:refs_changed': repoPushHandler,
  'pr:comment:added': prCommentHandler('commented on'),
  'pr:comment:edited': prCommentHandler('edited their comment on'),
  'pr:comment:deleted': prCommentHandler('deleted their comment on'),
  'pr:declined': prHandler('declined'),
  'pr:deleted': prHandler('deleted'),
  'pr:merged': prHandler('merged'),
  'pr:modified': prHandler('modified'),
  'pr:opened': prHandler('opened'),
  'pr:reviewer:approved': prHandler('approved'),
  'pr:reviewer:needs_work': prHandler('needs_work'),
  'pr:reviewer:updated': prHandler('reviewers_updated'),
  'pr:reviewer:unapproved': prHandler('unapproved'),
};

export const bitbucket3: Integration = {
  name: 'bitbucket3',
  webhookName: 'Bitbucket3',
  // Bitbucket escapes the URL's parameters once more than it should.
  unquoteUrlParameters: true,
  eventTypes: Object.keys(HANDLERS),
  handle(request) {
    const payload = request.json();
    const eventKey =
      typeof payload === 'object' && payload !== null && 'eventKey' in payload
        ? str(payload.eventKey)
        : eventHeader(request, 'X-Event-Key', 'BitBucket');
    const handler = Object.hasOwn(HANDLERS, eventKey) ? HANDLERS[eventKey]! : unsupportedEvent(eventKey);
    const posts = handler(payload, request.params.get('branches'), request.params.get('topic'));
    return posts.map((post): WebhookMessage => ({ topic: post.topic, content: post.body, event: eventKey }));
  },
};
