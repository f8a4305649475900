import { pullRequestMessage } from '../../toolkit/git.js';
import { pyTruthy } from '../../toolkit/pyformat.js';
import { int, str, strOrNone } from '../../toolkit/wild.js';
import { bool, getDict, has, senderName, type Helper } from './helpers.js';

/** The bodies of GitHub's pull request events, its reviews and review comments (Zulip's event names). */

export function openedOrUpdatedPullRequest({ payload, includeTitle }: Helper): string {
  const pr = payload.pull_request;
  let action = str(payload.action);
  if (action === 'synchronize') action = 'updated';
  const assignee = pyTruthy(pr.assignee) ? str(pr.assignee.login) : null;
  const changes = getDict(payload, 'changes');
  const description = has(changes, 'body') || action === 'opened' ? strOrNone(pr.body) : null;
  const branches = action === 'opened' || action === 'merged';
  return pullRequestMessage({
    userName: senderName(payload),
    action,
    url: str(pr.html_url),
    targetBranch: branches ? str(pr.head.label) : null,
    baseBranch: branches ? str(pr.base.label) : null,
    message: description,
    assignee,
    number: int(pr.number),
    title: includeTitle ? str(pr.title) : null,
  });
}

export function assignedOrUnassignedPullRequest({ payload, includeTitle }: Helper): string {
  const pr = payload.pull_request;
  const assignee = str(payload.assignee.login);
  return pullRequestMessage({
    userName: senderName(payload),
    action: str(payload.action),
    url: str(pr.html_url),
    number: int(pr.number),
    title: includeTitle ? str(pr.title) : null,
    assigneeUpdated: assignee,
  });
}

export function closedPullRequest({ payload, includeTitle }: Helper): string {
  const pr = payload.pull_request;
  return pullRequestMessage({
    userName: senderName(payload),
    action: bool(pr.merged) ? 'merged' : 'closed without merge',
    url: str(pr.html_url),
    number: int(pr.number),
    title: includeTitle ? str(pr.title) : null,
  });
}

export function lockedOrUnlockedPullRequest({ payload }: Helper): string {
  const pr = payload.pull_request;
  const link = `[PR #${int(pr.number)}](${str(pr.html_url)})`;
  if (str(payload.action) === 'unlocked') return `${senderName(payload)} has unlocked ${link}.`;
  const reason = pyTruthy(pr.active_lock_reason) ? str(pr.active_lock_reason) : 'None';
  return `${senderName(payload)} has locked ${link} as ${reason} and limited conversation to collaborators.`;
}

export function pullRequestAutoMerge({ payload }: Helper): string {
  const pr = payload.pull_request;
  const verb = str(payload.action) === 'auto_merge_disabled' ? 'disabled' : 'enabled';
  return `${senderName(payload)} has ${verb} auto merge for [PR #${int(pr.number)}](${str(pr.html_url)}).`;
}

export function pullRequestReadyForReview({ payload }: Helper): string {
  const pr = payload.pull_request;
  return `**${senderName(payload)}** has marked [PR #${int(pr.number)}](${str(pr.html_url)}) as ready for review.`;
}

export function pullRequestReview({ payload, includeTitle }: Helper): string {
  const pr = payload.pull_request;
  const title = `for #${int(pr.number)} ${str(pr.title)}`;
  return pullRequestMessage({
    userName: senderName(payload),
    action: 'submitted',
    url: str(payload.review.html_url),
    type: 'PR review',
    title: includeTitle ? title : null,
    message: strOrNone(payload.review.body),
  });
}

export function pullRequestReviewComment({ payload, includeTitle }: Helper): string {
  const pr = payload.pull_request;
  const action = str(payload.action);
  const message = action === 'created' ? str(payload.comment.body) : null;
  const title = `on #${int(pr.number)} ${str(pr.title)}`;
  return pullRequestMessage({
    userName: senderName(payload),
    action,
    url: str(payload.comment.html_url),
    message,
    type: 'PR review comment',
    title: includeTitle ? title : null,
  });
}

export function pullRequestReviewRequested({ payload, includeTitle }: Helper): string {
  const pr = payload.pull_request;
  const sender = senderName(payload);
  const number = int(pr.number);
  const url = str(pr.html_url);
  let reviewers: string;
  if (has(payload, 'requested_reviewer')) {
    const reviewer = payload.requested_reviewer;
    reviewers = `[${str(reviewer.login)}](${str(reviewer.html_url)})`;
  } else {
    const teamReviewer = payload.requested_team;
    reviewers = `[${str(teamReviewer.name)}](${str(teamReviewer.html_url)})`;
  }
  const title = includeTitle ? ` ${str(pr.title)}` : '';
  return `**${sender}** requested ${reviewers} for a review on [PR #${number}${title}](${url}).`;
}
