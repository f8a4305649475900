import { unsupportedEvent, type Json } from '../../framework.js';
import { isBranchNameNotifiable } from '../../toolkit/git.js';
import { pyTruthy } from '../../toolkit/pyformat.js';
import { str } from '../../toolkit/wild.js';
import { discussionBody, discussionComment } from './discussions.js';
import { branchNameFromRef, getDict, has, type Helper } from './helpers.js';
import {
  commitComment,
  issue,
  issueComment,
  issueLabeledOrUnlabeled,
  issueMilestonedOrDemilestoned,
  issueOpenedViaTransfer,
  issueTransferred,
} from './issues.js';
import {
  assignedOrUnassignedPullRequest,
  closedPullRequest,
  lockedOrUnlockedPullRequest,
  openedOrUpdatedPullRequest,
  pullRequestAutoMerge,
  pullRequestReadyForReview,
  pullRequestReview,
  pullRequestReviewComment,
  pullRequestReviewRequested,
} from './pull-requests.js';
import {
  checkRun,
  createOrDelete,
  deployment,
  deploymentStatus,
  fork,
  member,
  membership,
  pageBuild,
  ping,
  publicBody,
  pushCommits,
  pushTags,
  release,
  repository,
  star,
  status,
  team,
  teamAdd,
  watch,
  wikiPages,
} from './repository.js';
import { cancelled, created, edited, pendingCancellation, pendingTierChange, tierChanged } from './sponsors.js';

/** Zulip's event names for GitHub's header events and actions, and the body function of each. */

/** Zulip's EVENT_FUNCTION_MAPPER, in its order (its keys are the integration's event types). */
export const EVENT_BODIES: ReadonlyMap<string, (helper: Helper) => string> = new Map([
  ['commit_comment', commitComment],
  ['closed_pull_request', closedPullRequest],
  ['create', createOrDelete('created')],
  ['check_run', checkRun],
  ['delete', createOrDelete('deleted')],
  ['deployment', deployment],
  ['deployment_status', deploymentStatus],
  ['discussion', discussionBody],
  ['discussion_comment', discussionComment],
  ['fork', fork],
  ['gollum', wikiPages],
  ['issue_comment', issueComment],
  ['issue_labeled_or_unlabeled', issueLabeledOrUnlabeled],
  ['issue_milestoned_or_demilestoned', issueMilestonedOrDemilestoned],
  ['issues_opened_via_transfer', issueOpenedViaTransfer],
  ['issues_transferred', issueTransferred],
  ['issues', issue],
  ['member', member],
  ['membership', membership],
  ['opened_pull_request', openedOrUpdatedPullRequest],
  ['updated_pull_request', openedOrUpdatedPullRequest],
  ['assigned_or_unassigned_pull_request', assignedOrUnassignedPullRequest],
  ['page_build', pageBuild],
  ['ping', ping],
  ['public', publicBody],
  ['pull_request_ready_for_review', pullRequestReadyForReview],
  ['pull_request_review', pullRequestReview],
  ['pull_request_review_comment', pullRequestReviewComment],
  ['pull_request_review_requested', pullRequestReviewRequested],
  ['pull_request_auto_merge', pullRequestAutoMerge],
  ['locked_or_unlocked_pull_request', lockedOrUnlockedPullRequest],
  ['push_commits', pushCommits],
  ['push_tags', pushTags],
  ['release', release],
  ['repository', repository],
  ['star', star],
  ['status', status],
  ['team', team],
  ['team_add', teamAdd],
  ['watch', watch],
  ['cancelled', cancelled],
  ['created', created],
  ['edited', edited],
  ['pending_cancellation', pendingCancellation],
  ['pending_tier_change', pendingTierChange],
  ['tier_changed', tierChanged],
]);

export const SPONSORS_EVENT_TYPES = new Set([
  'cancelled',
  'created',
  'edited',
  'pending_cancellation',
  'pending_tier_change',
  'tier_changed',
]);

/** Events GitHub sends that Zulip posts nothing for (and does not call unsupported). */
const IGNORED_EVENTS = new Set([
  'check_suite',
  'label',
  'meta',
  'milestone',
  'organization',
  'project_card',
  'push__merge_queue',
  'repository_vulnerability_alert',
]);

const IGNORED_PULL_REQUEST_ACTIONS = new Set([
  'approved',
  'converted_to_draft',
  'labeled',
  'review_request_removed',
  'unlabeled',
]);

/** Team actions GitHub documents that Zulip does not describe yet. */
const IGNORED_TEAM_ACTIONS = new Set(['added_to_repository', 'created', 'deleted', 'removed_from_repository']);

/**
 * get_zulip_event_name: Zulip's event name for the header's event and the payload's action, or null for an event
 * that is known and posts nothing; unsupported ones throw.
 */
export function zulipEventName(headerEvent: string, payload: Json, branches: string | null): string | null {
  if (headerEvent === 'pull_request') {
    const action = str(payload.action);
    if (action === 'opened' || action === 'reopened') return 'opened_pull_request';
    if (action === 'synchronize' || action === 'edited') return 'updated_pull_request';
    if (action === 'assigned' || action === 'unassigned') return 'assigned_or_unassigned_pull_request';
    if (action === 'closed') return 'closed_pull_request';
    if (action === 'review_requested') return 'pull_request_review_requested';
    if (action === 'ready_for_review') return 'pull_request_ready_for_review';
    if (action === 'locked' || action === 'unlocked') return 'locked_or_unlocked_pull_request';
    if (action === 'auto_merge_enabled' || action === 'auto_merge_disabled') return 'pull_request_auto_merge';
    if (IGNORED_PULL_REQUEST_ACTIONS.has(action)) return null;
  } else if (headerEvent === 'pull_request_review') {
    // GitHub sends a duplicate, empty "edited" event for a review's body when it is submitted.
    if (str(payload.action) === 'edited' && Object.keys(getDict(payload, 'changes')).length === 0) return null;
    return 'pull_request_review';
  } else if (headerEvent === 'push') {
    const ref = str(payload.ref);
    if (ref.startsWith('refs/heads/gh-readonly-queue/')) return null;
    if (ref.startsWith('refs/heads/')) {
      if (branches !== null && !isBranchNameNotifiable(branchNameFromRef(ref), branches)) return null;
      return 'push_commits';
    }
    return 'push_tags';
  } else if (headerEvent === 'check_run') {
    if (str(payload.check_run.status) !== 'completed') return null;
    return headerEvent;
  } else if (headerEvent === 'team') {
    const action = str(payload.action);
    if (action === 'edited') return 'team';
    if (IGNORED_TEAM_ACTIONS.has(action)) return null;
    // GitHub has added a team action since Zulip's list was made.
    unsupportedEvent(`unsupported team action ${action}`);
  } else if (headerEvent === 'issues') {
    const action = str(payload.action);
    if (action === 'labeled' || action === 'unlabeled') return 'issue_labeled_or_unlabeled';
    if (action === 'milestoned' || action === 'demilestoned') return 'issue_milestoned_or_demilestoned';
    if (action === 'transferred') return 'issues_transferred';
    if (action === 'opened' && pyTruthy(getDict(getDict(payload, 'changes'), 'old_issue'))) {
      return 'issues_opened_via_transfer';
    }
    return 'issues';
  } else if (EVENT_BODIES.has(headerEvent)) {
    return headerEvent;
  } else if (IGNORED_EVENTS.has(headerEvent)) {
    return null;
  }
  const action = has(payload, 'action') ? str(payload.action) : '???';
  unsupportedEvent(`${headerEvent}:${action}`);
}
