import { unsupportedEvent, type Integration, type Json } from '../framework.js';
import {
  isBranchNameNotifiable,
  pullRequestMessage,
  pushCommitsMessage,
  topicWithBranch,
  topicWithPrOrIssue,
} from '../toolkit/git.js';
import { pyTruthy } from '../toolkit/pyformat.js';
import { int, list, str } from '../toolkit/wild.js';

/**
 * Azure DevOps (zerver/webhooks/azuredevops): Git pushes and pull requests created, updated and merged, by the
 * payload's eventType. A merge event that is only an attempt (a conflict, or a check on update) posts nothing.
 */

/** WildValue's `value[key]`: a field the view insists on. */
function at(value: Json, key: string | number): Json {
  if (typeof value !== 'object' || value === null || !(key in value)) throw new TypeError(`missing ${key}`);
  return value[key];
}

const resource = (payload: Json): Json => at(payload, 'resource');
const repositoryName = (payload: Json): string => str(at(at(resource(payload), 'repository'), 'name'));
const repositoryUrl = (payload: Json): string => str(at(at(resource(payload), 'repository'), 'remoteUrl'));
const refUpdate = (payload: Json): Json => at(at(resource(payload), 'refUpdates'), 0);
const pushBranch = (payload: Json): string => str(at(refUpdate(payload), 'name')).replace('refs/heads/', '');
const headsless = (ref: unknown): string => str(ref).replace('refs/heads/', '');

/** The facts every pull request message shares. */
function pullRequest(payload: Json) {
  const pr = resource(payload);
  return {
    userName: str(at(at(pr, 'createdBy'), 'displayName')),
    url: str(at(at(at(pr, '_links'), 'web'), 'href')),
    number: int(at(pr, 'pullRequestId')),
    title: str(at(pr, 'title')),
  };
}

function pushBody(payload: Json): string {
  const update = refUpdate(payload);
  const base = repositoryUrl(payload);
  const compareUrl =
    `${base}/branchCompare?baseVersion=GC${str(at(update, 'oldObjectId'))}` +
    `&targetVersion=GC${str(at(update, 'newObjectId'))}&_a=files`;
  const res = resource(payload);
  const commits = (list('commits' in res ? res.commits : []) as Json[]).map((commit) => ({
    name: str(at(at(commit, 'author'), 'name')),
    sha: str(at(commit, 'commitId')),
    url: `${base}/commit/${str(at(commit, 'commitId'))}`,
    message: str(at(commit, 'comment')),
  }));
  return pushCommitsMessage(str(at(at(res, 'pushedBy'), 'displayName')), compareUrl, pushBranch(payload), commits);
}

function createdBody(payload: Json): string {
  const res = resource(payload);
  return pullRequestMessage({
    ...pullRequest(payload),
    action: 'created',
    targetBranch: headsless(at(res, 'sourceRefName')),
    baseBranch: headsless(at(res, 'targetRefName')),
    message: pyTruthy(res.description) ? str(res.description) : null,
  });
}

function mergedBody(payload: Json): string {
  const res = resource(payload);
  return pullRequestMessage({
    ...pullRequest(payload),
    action: 'merged',
    targetBranch: headsless(at(res, 'sourceRefName')),
    baseBranch: headsless(at(res, 'targetRefName')),
  });
}

function updatedBody(payload: Json): string {
  return pullRequestMessage({
    ...pullRequest(payload),
    action: 'updated',
    message: str(at(at(payload, 'detailedMessage'), 'markdown')),
  });
}

const BODIES: Record<string, (payload: Json) => string> = {
  'git.push': pushBody,
  'git.pullrequest.created': createdBody,
  'git.pullrequest.merged': mergedBody,
  'git.pullrequest.updated': updatedBody,
};

export const azuredevops: Integration = {
  name: 'azuredevops',
  webhookName: 'AzureDevOps',
  eventTypes: Object.keys(BODIES),
  handle(request) {
    const payload = request.json();
    const event = str(at(payload, 'eventType'));
    if (event === 'git.push' && !isBranchNameNotifiable(pushBranch(payload), request.params.get('branches')))
      return null;
    if (event === 'git.pullrequest.merged') {
      const res = resource(payload);
      // Only a merge that went through is posted.
      if (str(at(res, 'status')) !== 'completed' || str(at(res, 'mergeStatus')) !== 'succeeded') return null;
    }
    if (!Object.hasOwn(BODIES, event)) unsupportedEvent(event);
    const topic =
      event === 'git.push'
        ? topicWithBranch(repositoryName(payload), pushBranch(payload))
        : topicWithPrOrIssue(repositoryName(payload), 'PR', pullRequest(payload).number, pullRequest(payload).title);
    return { topic, content: BODIES[event]!(payload) };
  },
};
