import { invalid } from '@confab/errors';
import type { Integration, Json, WebhookRequest } from '../../framework.js';
import { topicWithBranch, topicWithPrOrIssue } from '../../toolkit/git.js';
import { eventHeader } from '../../toolkit/headers.js';
import { pyTruthy } from '../../toolkit/pyformat.js';
import { int, str } from '../../toolkit/wild.js';
import { EVENT_BODIES, SPONSORS_EVENT_TYPES, zulipEventName } from './events.js';
import { bool, branchNameFromRef, has, isPullRequestComment, repositoryName } from './helpers.js';

/**
 * GitHub (zerver/webhooks/github): the X-GitHub-Event header, refined by the payload's action into Zulip's own
 * event names (`opened_pull_request`, `push_commits`, `issue_labeled_or_unlabeled`, …), which are what
 * only_events/exclude_events match. Pushes go to "repo / branch" (filtered by the URL's `branches`), pull requests
 * and issues to "repo / PR #n title", the rest mostly to the repository's name. `ignore_private_repositories=true`
 * drops every event of a private repository. The GitHub Sponsors URL (githubsponsors) is the same view.
 *
 * Zulip checks no signature here: GitHub's X-Hub-Signature-256 is not read, as in Zulip (as of the cases' commit).
 */

/** get_topic_based_on_type. */
function topicFor(payload: Json, event: string): string {
  if (event.includes('pull_request')) {
    return topicWithPrOrIssue(
      repositoryName(payload),
      'PR',
      int(payload.pull_request.number),
      str(payload.pull_request.title),
    );
  }
  if (event.startsWith('issue')) {
    return topicWithPrOrIssue(
      repositoryName(payload),
      isPullRequestComment(payload) ? 'PR' : 'issue',
      int(payload.issue.number),
      str(payload.issue.title),
    );
  }
  if (event.startsWith('deployment')) {
    return `${repositoryName(payload)} / Deployment on ${str(payload.deployment.environment)}`;
  }
  if (event === 'membership') return `${str(payload.organization.login)} organization`;
  if (event === 'team') return `team ${str(payload.team.name)}`;
  if (event === 'push_commits') return topicWithBranch(repositoryName(payload), branchNameFromRef(str(payload.ref)));
  if (event === 'gollum') return topicWithBranch(repositoryName(payload), 'wiki pages');
  if (event === 'ping' && !pyTruthy(payload.repository)) return str(payload.organization.login);
  if (event === 'check_run') return `${repositoryName(payload)} / checks`;
  if (event.startsWith('discussion')) {
    return `${repositoryName(payload)} discussion #${int(payload.discussion.number)}: ${str(payload.discussion.title)}`;
  }
  if (SPONSORS_EVENT_TYPES.has(event)) return 'sponsors';
  return repositoryName(payload);
}

/**
 * The `ignore_private_repositories` parameter: Zulip's Json[bool], validated strictly as typed_endpoint does (JSON
 * true or false), with its texts.
 */
function ignorePrivateRepositories(request: WebhookRequest): boolean {
  const raw = request.params.get('ignore_private_repositories');
  if (raw === undefined) return false;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalid('ignore_private_repositories is not valid JSON');
  }
  if (typeof value !== 'boolean') throw invalid('ignore_private_repositories is not a boolean');
  return value;
}

function handle(request: WebhookRequest) {
  const payload = request.json();
  const ignorePrivate = ignorePrivateRepositories(request);
  const headerEvent = eventHeader(request, 'X-GitHub-Event', 'GitHub');
  if (has(payload, 'repository') && bool(payload.repository.private) && ignorePrivate) return null;
  // An edited comment whose text did not change (discussion comments aside) is not worth a message.
  if (
    headerEvent.includes('comment') &&
    !headerEvent.includes('discussion') &&
    (has(payload, 'action') ? str(payload.action) : '') === 'edited' &&
    str(payload.changes.body.from) === str(payload.comment.body)
  ) {
    return null;
  }
  const event = zulipEventName(headerEvent, payload, request.params.get('branches') ?? null);
  if (event === null) return null;
  const topic = topicFor(payload, event);
  const body = EVENT_BODIES.get(event)!({ payload, includeTitle: request.params.has('topic') });
  return { topic, content: body, event };
}

export const github: Integration = {
  name: 'github',
  webhookName: 'GitHub',
  eventTypes: [...EVENT_BODIES.keys()],
  handle,
};

/** The GitHub Sponsors URL: Zulip routes it to the same view (client ZulipGitHubWebhook). */
export const githubsponsors: Integration = { ...github, name: 'githubsponsors' };
