import { unsupportedEvent, type Integration, type Json, type WebhookRequest } from '../../framework.js';
import { eventHeader } from '../../toolkit/headers.js';
import {
  EMPTY_SHA,
  isBranchNameNotifiable,
  pushCommitsMessage,
  pushTagMessage,
  removeBranchMessage,
  topicWithPrOrIssue,
} from '../../toolkit/git.js';
import { jsonBoolParam } from '../../toolkit/params.js';
import { pyTruthy } from '../../toolkit/pyformat.js';
import { pyTitle } from '../../toolkit/python.js';
import { int, list, str } from '../../toolkit/wild.js';
import { at, attributes, branchName, has, projectHomepage, repoName, tagName, userName, type Body } from './fields.js';
import {
  commitNoteBody,
  designNoteBody,
  issueBody,
  issueCreatedBody,
  issueNoteBody,
  mergeRequestBody,
  mergeRequestNoteBody,
  mergeRequestOpenOrUpdatedBody,
  mergeRequestUpdatedBody,
  snippetNoteBody,
  wikiPageBody,
} from './issues.js';
import { accessTokenBody, buildBody, deploymentBody, featureFlagBody, pipelineBody, releaseBody } from './pipelines.js';

/**
 * GitLab (zerver/webhooks/gitlab): pushes, tags, issues, merge requests, comments (notes), wiki pages, jobs,
 * pipelines, releases, feature flags, access-token expiry and deployments, each event named by the X-Gitlab-Event
 * header and, for issues, merge requests and wiki pages, the action ("Merge Request Hook open"); a System Hook is
 * named by its payload's event_name. With a `topic` in the URL, titles go into the text and it starts with a link
 * to the project. The bodies of issues, merge requests, notes and wiki pages are in issues.ts; of jobs, pipelines,
 * releases, feature flags, token expiry and deployments in pipelines.ts.
 */

function pushBody(payload: Json): string {
  const after = has(payload, 'after') ? payload.after : null;
  if (pyTruthy(after) && str(after) === EMPTY_SHA) return removeBranchMessage(userName(payload), branchName(payload));
  const compareUrl = `${projectHomepage(payload)}/-/compare/${str(at(payload, 'before'))}...${str(at(payload, 'after'))}`;
  const commits = list(at(payload, 'commits')).map((commit: Json) => ({
    name: str(at(at(commit, 'author'), 'name')),
    sha: str(at(commit, 'id')),
    message: str(at(commit, 'message')),
    url: str(at(commit, 'url')),
  }));
  return pushCommitsMessage(userName(payload), compareUrl, branchName(payload), commits);
}

const tagPushBody: Body = (payload) =>
  pushTagMessage(userName(payload), tagName(payload), null, pyTruthy(payload.checkout_sha) ? 'pushed' : 'removed');

const testBody: Body = (payload) => `Webhook for **${repoName(payload)}** has been configured successfully! :tada:`;

const EVENT_BODIES: Record<string, Body> = {
  'Push Hook': pushBody,
  'Tag Push Hook': tagPushBody,
  'Test Hook': testBody,
  'Issue Hook open': issueCreatedBody,
  'Issue Hook close': issueBody('closed'),
  'Issue Hook reopen': issueBody('reopened'),
  'Issue Hook update': issueBody('updated'),
  'Confidential Issue Hook open': issueCreatedBody,
  'Confidential Issue Hook close': issueBody('closed'),
  'Confidential Issue Hook reopen': issueBody('reopened'),
  'Confidential Issue Hook update': issueBody('updated'),
  'Note Hook Commit': commitNoteBody,
  'Note Hook MergeRequest': mergeRequestNoteBody,
  'Note Hook Issue': issueNoteBody,
  'Confidential Note Hook Issue': issueNoteBody,
  'Note Hook DesignManagement::Design': designNoteBody,
  'Confidential Note Hook DesignManagement::Design': designNoteBody,
  'Note Hook Snippet': snippetNoteBody,
  'Merge Request Hook approved': mergeRequestBody('approved'),
  'Merge Request Hook unapproved': mergeRequestBody('unapproved'),
  // GitLab sends approval and unapproval only when a merge request needs more than one approver.
  'Merge Request Hook approval': mergeRequestBody('approval'),
  'Merge Request Hook unapproval': mergeRequestBody('unapproval'),
  'Merge Request Hook open': mergeRequestOpenOrUpdatedBody('created'),
  'Merge Request Hook update': mergeRequestUpdatedBody,
  'Merge Request Hook merge': mergeRequestBody('merged'),
  'Merge Request Hook close': mergeRequestBody('closed'),
  'Merge Request Hook reopen': mergeRequestBody('reopened'),
  'Wiki Page Hook create': wikiPageBody('created'),
  'Wiki Page Hook update': wikiPageBody('updated'),
  'Job Hook': buildBody,
  'Build Hook': buildBody,
  'Pipeline Hook': pipelineBody,
  'Release Hook': releaseBody,
  'Feature Flag Hook': featureFlagBody,
  'Resource Access Token Hook': accessTokenBody,
  'Deployment Hook': deploymentBody,
};

/** get_event: the header's event, refined by the payload; null when a push's branch is filtered out. */
function gitlabEvent(request: WebhookRequest, payload: Json): string | null {
  let event = eventHeader(request, 'X-GitLab-Event', 'GitLab');
  if (event === 'System Hook') {
    const name = has(payload, 'event_name') ? str(payload.event_name) : str(at(payload, 'object_kind'));
    event = `${pyTitle(name.split('__')[0]!.replace(/_/g, ' '))} Hook`;
  }
  if (['Confidential Issue Hook', 'Issue Hook', 'Merge Request Hook', 'Wiki Page Hook'].includes(event)) {
    const object = attributes(payload);
    event = `${event} ${has(object, 'action') ? str(object.action) : 'open'}`;
  } else if (['Confidential Note Hook', 'Note Hook'].includes(event)) {
    event = `${event} ${str(at(attributes(payload), 'noteable_type'))}`;
  } else if (event === 'Push Hook' && request.params.has('branches')) {
    if (!isBranchNameNotifiable(branchName(payload), request.params.get('branches'))) return null;
  }
  if (Object.hasOwn(EVENT_BODIES, event)) return event;
  return unsupportedEvent(event);
}

function gitlabTopic(event: string, payload: Json, useMergeRequestTitle: boolean): string {
  if (event === 'Push Hook') return `${repoName(payload)} / ${branchName(payload)}`;
  if (event === 'Job Hook' || event === 'Build Hook')
    return `${str(at(at(payload, 'repository'), 'name'))} / ${branchName(payload)}`;
  if (event === 'Pipeline Hook')
    return `${repoName(payload)} / ${str(at(attributes(payload), 'ref')).replace('refs/heads/', '')}`;
  if (event.startsWith('Merge Request Hook')) {
    const object = attributes(payload);
    return topicWithPrOrIssue(
      repoName(payload),
      'MR',
      int(at(object, 'iid')),
      useMergeRequestTitle ? str(at(object, 'title')) : '',
    );
  }
  if (event.startsWith('Issue Hook') || event.startsWith('Confidential Issue Hook')) {
    const object = attributes(payload);
    return topicWithPrOrIssue(repoName(payload), 'issue', int(at(object, 'iid')), str(at(object, 'title')));
  }
  if (event === 'Note Hook Issue' || event === 'Confidential Note Hook Issue') {
    const issue = at(payload, 'issue');
    return topicWithPrOrIssue(repoName(payload), 'issue', int(at(issue, 'iid')), str(at(issue, 'title')));
  }
  if (event === 'Note Hook DesignManagement::Design' || event === 'Confidential Note Hook DesignManagement::Design') {
    const designName = str(at(at(attributes(payload), 'position'), 'new_path'))
      .split('/')
      .pop()!;
    return `${repoName(payload)} / design ${designName}`;
  }
  if (event === 'Note Hook MergeRequest') {
    const mr = at(payload, 'merge_request');
    return topicWithPrOrIssue(
      repoName(payload),
      'MR',
      int(at(mr, 'iid')),
      useMergeRequestTitle ? str(at(mr, 'title')) : '',
    );
  }
  if (event === 'Note Hook Snippet') {
    const snippet = at(payload, 'snippet');
    return topicWithPrOrIssue(repoName(payload), 'snippet', int(at(snippet, 'id')), str(at(snippet, 'title')));
  }
  if (event === 'Resource Access Token Hook' && pyTruthy(payload.group))
    return str(at(at(payload, 'group'), 'group_name'));
  if (event === 'Deployment Hook') return `${repoName(payload)} / ${str(at(payload, 'environment'))}`;
  return repoName(payload);
}

export const gitlab: Integration = {
  name: 'gitlab',
  webhookName: 'GitLab',
  eventTypes: Object.keys(EVENT_BODIES),
  handle(request) {
    const payload = request.json();
    const useMergeRequestTitle = jsonBoolParam(request, 'use_merge_request_title', true);
    const event = gitlabEvent(request, payload);
    if (event === null) return null;
    const topicParam = request.params.get('topic');
    let content = EVENT_BODIES[event]!(payload, { includeTitle: topicParam !== undefined });
    // With a topic of the URL's, the text says which project it is about.
    if (topicParam) content = `[[${repoName(payload)}](${projectHomepage(payload)})] ${content}`;
    return { topic: gitlabTopic(event, payload, useMergeRequestTitle), content, event };
  },
};
