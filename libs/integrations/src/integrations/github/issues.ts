import {
  commitCommentMessage,
  issueLabeledMessage,
  issueMessage,
  issueMilestonedMessage,
  pullRequestMessage,
} from '../../toolkit/git.js';
import { int, str, strOrNone } from '../../toolkit/wild.js';
import { commentAction, has, isPullRequestComment, senderName, senderUrl, type Helper } from './helpers.js';

/** The bodies of GitHub's issue events and of comments on issues, pull requests and commits. */

export function issue({ payload, includeTitle }: Helper): string {
  const action = str(payload.action);
  const issue = payload.issue;
  return issueMessage({
    userName: senderName(payload),
    action,
    url: str(issue.html_url),
    number: int(issue.number),
    message: action === 'assigned' || action === 'unassigned' ? null : strOrNone(issue.body),
    title: includeTitle ? str(issue.title) : null,
    assigneeUpdated: has(payload, 'assignee') ? str(payload.assignee.login) : null,
  });
}

export function issueComment({ payload, includeTitle }: Helper): string {
  const issue = payload.issue;
  return pullRequestMessage({
    userName: senderName(payload),
    action: commentAction(payload),
    url: str(issue.html_url),
    number: int(issue.number),
    message: str(payload.comment.body),
    title: includeTitle ? str(issue.title) : null,
    type: isPullRequestComment(payload) ? 'PR' : 'issue',
  });
}

export function issueLabeledOrUnlabeled({ payload, includeTitle }: Helper): string {
  const issue = payload.issue;
  return issueLabeledMessage({
    userName: senderName(payload),
    action: str(payload.action) === 'labeled' ? 'added' : 'removed',
    url: str(issue.html_url),
    number: int(issue.number),
    labelName: str(payload.label.name),
    userUrl: senderUrl(payload),
    title: includeTitle ? str(issue.title) : null,
  });
}

export function issueMilestonedOrDemilestoned({ payload, includeTitle }: Helper): string {
  const issue = payload.issue;
  return issueMilestonedMessage({
    userName: senderName(payload),
    action: str(payload.action) === 'milestoned' ? 'added' : 'removed',
    url: str(issue.html_url),
    number: int(issue.number),
    milestoneName: str(payload.milestone.title),
    milestoneUrl: str(payload.milestone.html_url),
    userUrl: senderUrl(payload),
    title: includeTitle ? str(issue.title) : null,
  });
}

export function issueTransferred({ payload }: Helper): string {
  const changes = payload.changes;
  return (
    `${senderName(payload)} transferred [issue #${int(payload.issue.number)} ${str(payload.issue.title)}]` +
    `(${str(payload.issue.html_url)}) to [${str(changes.new_repository.full_name)}/#${int(changes.new_issue.number)}]` +
    `(${str(changes.new_issue.html_url)}).`
  );
}

export function issueOpenedViaTransfer({ payload }: Helper): string {
  const changes = payload.changes;
  return (
    `[Issue #${int(payload.issue.number)} ${str(payload.issue.title)}](${str(payload.issue.html_url)}) was ` +
    `transferred from [${str(changes.old_repository.full_name)}#${int(changes.old_issue.number)}]` +
    `(${str(changes.old_issue.html_url)}).`
  );
}

export function commitComment({ payload }: Helper): string {
  const comment = payload.comment;
  const commentUrl = str(comment.html_url);
  const commitUrl = commentUrl.split('#', 1)[0]!;
  return commitCommentMessage(
    senderName(payload),
    `[commented](${commentUrl})`,
    commitUrl,
    str(comment.commit_id),
    str(comment.body),
  );
}
