import type { Json } from '../../framework.js';
import { quoted, releaseMessageWithoutUser } from '../../toolkit/git.js';
import { strftime } from '../../toolkit/dates.js';
import { pyTruthy } from '../../toolkit/pyformat.js';
import { int, list, str } from '../../toolkit/wild.js';
import { at, attributes, has, projectHomepage, type Body } from './fields.js';

/** GitLab's jobs, pipelines, releases, feature flags, access-token expiry and deployments. */

function statusAction(status: string, created: string): string {
  if (status === created) return 'was created';
  if (status === 'running') return 'started';
  return `changed status to ${status}`;
}

export const buildBody: Body = (payload) =>
  `Build ${str(at(payload, 'build_name'))} from ${str(at(payload, 'build_stage'))} stage ` +
  `${statusAction(str(at(payload, 'build_status')), 'created')}.`;

export const pipelineBody: Body = (payload) => {
  const object = attributes(payload);
  const action = statusAction(str(at(object, 'status')), 'pending');
  const homepage = projectHomepage(payload);
  const id = int(at(object, 'id'));
  let builds = '';
  for (const build of list(at(payload, 'builds')) as Json[]) {
    const buildUrl = `${homepage}/-/jobs/${int(at(build, 'id'))}`;
    const artifacts = has(build, 'artifacts_file') ? build.artifacts_file : {};
    const filename = has(artifacts, 'filename') ? artifacts.filename : null;
    const artifact = pyTruthy(filename)
      ? `  * built artifact: *${str(filename)}* [[Browse](${buildUrl}/artifacts/browse)|[Download](${buildUrl}/artifacts/download)]\n`
      : '';
    builds += `* [${str(at(build, 'name'))}](${buildUrl}) - ${str(at(build, 'status'))}\n${artifact}`;
  }
  return `[Pipeline (${id})](${homepage}/-/pipelines/${id}) ${action} with build(s):\n${builds.slice(0, -1)}.`;
};

export const releaseBody: Body = (payload) => {
  const action = str(at(payload, 'action'));
  const name = str(at(payload, 'name'));
  const tag = str(at(payload, 'tag'));
  if (action === 'delete') return releaseMessageWithoutUser(`${action}d`, tag, name);
  let body = releaseMessageWithoutUser(`${action}d`, tag, name, str(at(payload, 'url')));
  if (has(payload, 'description')) body += quoted(str(payload.description));
  return body;
};

export const featureFlagBody: Body = (payload) => {
  const flag = attributes(payload);
  const repoUrl = str(at(at(payload, 'project'), 'web_url'));
  const action = pyTruthy(at(flag, 'active')) ? 'activated' : 'deactivated';
  return `${str(at(at(payload, 'user'), 'username'))} ${action} the feature flag [${str(at(flag, 'name'))}](${repoUrl}/-/feature_flags).`;
};

export const accessTokenBody: Body = (payload) => {
  const token = attributes(payload);
  const expires = str(at(token, 'expires_at'));
  const match = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(expires);
  if (!match) throw new TypeError('unexpected expiry date');
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  const url = has(payload, 'group')
    ? `https://gitlab.com/groups/${str(at(at(payload, 'group'), 'group_path'))}/-/settings/access_tokens`
    : `${str(at(at(payload, 'project'), 'web_url'))}/-/settings/access_tokens`;
  return `The access token [${str(at(token, 'name'))}](${url}) will expire on ${strftime(date, '%b %d, %Y')}.`;
};

export const deploymentBody: Body = (payload) => {
  const user = `[${str(at(at(payload, 'user'), 'name'))}](${str(at(payload, 'user_url'))})`;
  const status = str(at(payload, 'status'));
  const deployableUrl = has(payload, 'deployable_url') ? str(payload.deployable_url) : '';
  const deployment = deployableUrl ? `[deployment](${deployableUrl})` : 'deployment';
  const commitTitle = str(at(payload, 'commit_title'));
  const commitUrl = str(at(payload, 'commit_url'));
  const sha = commitUrl.split('/').pop()!.slice(0, 7);
  switch (status) {
    case 'running':
      return `${user} started a new ${deployment}:\n> [${sha}](${commitUrl}) ${commitTitle}`;
    case 'success':
      return `The ${deployment} was successful.`;
    case 'failed':
      return `The ${deployment} failed.`;
    case 'canceled':
      return `The ${deployment} was canceled.`;
    default:
      throw new TypeError(`unexpected deployment status ${status}`);
  }
};
