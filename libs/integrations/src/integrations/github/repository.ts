import type { Json } from '../../framework.js';
import {
  pushCommitsMessage,
  pushTagMessage,
  quoted,
  releaseMessage,
  shortSha,
  type CommitData,
} from '../../toolkit/git.js';
import { setupMessage } from '../../toolkit/headers.js';
import { pyTruthy } from '../../toolkit/pyformat.js';
import { str } from '../../toolkit/wild.js';
import {
  bool,
  branchNameFromRef,
  has,
  repositoryFullName,
  repositoryName,
  senderName,
  senderUrl,
  tagNameFromRef,
  type Helper,
} from './helpers.js';

/** The bodies of GitHub's repository events: pushes, refs, releases, pages, statuses, checks, deployments, teams. */

export function pushCommits({ payload }: Helper): string {
  const commits: CommitData[] = [];
  for (const commit of payload.commits as Json[]) {
    const name = pyTruthy(commit.author.username) ? str(commit.author.username) : str(commit.author.name);
    commits.push({ name, sha: str(commit.id), url: str(commit.url), message: str(commit.message) });
  }
  return pushCommitsMessage(senderName(payload), str(payload.compare), branchNameFromRef(str(payload.ref)), commits, {
    deleted: bool(payload.deleted),
    forcePush: bool(payload.forced),
  });
}

export function pushTags({ payload }: Helper): string {
  return pushTagMessage(
    senderName(payload),
    tagNameFromRef(str(payload.ref)),
    null,
    bool(payload.created) ? 'pushed' : 'removed',
  );
}

export function createOrDelete(action: string): (helper: Helper) => string {
  return ({ payload }) => `${senderName(payload)} ${action} ${str(payload.ref_type)} ${str(payload.ref)}.`.trimEnd();
}

export function release({ payload }: Helper): string {
  const rel = payload.release;
  // Not every GitHub release has a name; then the tag's name is the release's.
  const name = pyTruthy(rel.name) ? str(rel.name) : str(rel.tag_name);
  return releaseMessage(senderName(payload), str(payload.action), str(rel.tag_name), name, str(rel.html_url));
}

export function fork({ payload }: Helper): string {
  return `${senderName(payload)} forked [${str(payload.forkee.name)}](${str(payload.forkee.html_url)}).`;
}

export function publicBody({ payload }: Helper): string {
  return `${senderName(payload)} made the repository [${repositoryFullName(payload)}](${str(payload.repository.html_url)}) public.`;
}

export function repository({ payload }: Helper): string {
  return (
    `${senderName(payload)} ${str(payload.action)} the repository ` +
    `[${repositoryFullName(payload)}](${str(payload.repository.html_url)}).`
  );
}

export function watch({ payload }: Helper): string {
  return `${senderName(payload)} starred the repository [${repositoryFullName(payload)}](${str(payload.repository.html_url)}).`;
}

export function star({ payload }: Helper): string {
  return (
    `[${senderName(payload)}](${senderUrl(payload)}) ${str(payload.action) === 'created' ? 'starred' : 'unstarred'} ` +
    `the repository [${repositoryFullName(payload)}](${str(payload.repository.html_url)}).`
  );
}

export function wikiPages({ payload }: Helper): string {
  let info = '';
  for (const page of payload.pages as Json[]) {
    info += `* ${str(page.action)} [${str(page.title)}](${str(page.html_url)})\n`;
  }
  return `${senderName(payload)}:\n${info.trimEnd()}`;
}

const PAGE_BUILD_ACTIONS: Record<string, string> = {
  null: 'has yet to be built',
  building: 'is being built',
  errored: 'has failed: {}',
  built: 'has finished building',
};

export function pageBuild({ payload }: Helper): string {
  const build = payload.build;
  const status = str(build.status);
  let action = PAGE_BUILD_ACTIONS[status] ?? `is ${status}`;
  if (pyTruthy(build.error.message)) action = action.replace('{}', quoted(str(build.error.message)));
  return `GitHub Pages build, triggered by ${str(build.pusher.login)}, ${action}.`;
}

export function status({ payload }: Helper): string {
  const state = pyTruthy(payload.target_url)
    ? `[${str(payload.state)}](${str(payload.target_url)})`
    : str(payload.state);
  return `[${shortSha(str(payload.sha))}](${str(payload.commit.html_url)}) changed its status to ${state}.`;
}

export function checkRun({ payload }: Helper): string {
  const run = payload.check_run;
  const headSha = str(run.head_sha);
  return (
    `Check [${str(run.name)}](${str(run.html_url)}) ${str(run.status)} (${str(run.conclusion)}). ` +
    `([${shortSha(headSha)}](${str(payload.repository.html_url)}/commit/${headSha}))`
  );
}

export function deployment({ payload }: Helper): string {
  return `${senderName(payload)} created new deployment.`;
}

export function deploymentStatus({ payload }: Helper): string {
  return `Deployment changed status to ${str(payload.deployment_status.state)}.`;
}

export function member({ payload }: Helper): string {
  return (
    `${senderName(payload)} ${str(payload.action)} [${str(payload.member.login)}](${str(payload.member.html_url)}) ` +
    `to [${repositoryName(payload)}](${str(payload.repository.html_url)}).`
  );
}

export function membership({ payload }: Helper): string {
  const action = str(payload.action);
  const member = payload.member;
  return (
    `${senderName(payload)} ${action} [${str(member.login)}](${str(member.html_url)}) ` +
    `${action === 'removed' ? 'from' : 'to'} the ${str(payload.team.name)} team.`
  );
}

export function team({ payload }: Helper): string {
  const changes = payload.changes;
  if (has(changes, 'description')) {
    return `**${senderName(payload)}** changed the team description to:\n\n~~~ quote\n${str(payload.team.description)}\n~~~`;
  }
  if (has(changes, 'name')) return `Team \`${str(changes.name.from)}\` was renamed to \`${str(payload.team.name)}\`.`;
  if (has(changes, 'privacy')) return `Team visibility changed to \`${str(payload.team.privacy)}\``;
  // Something changed that Zulip does not describe: say what, so that people can look on GitHub.
  const keys = Object.keys(changes)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .join('/');
  return `Team has changes to \`${keys}\` data.`;
}

export function teamAdd({ payload }: Helper): string {
  return (
    `The repository [${repositoryFullName(payload)}](${str(payload.repository.html_url)}) was added to team ` +
    `${str(payload.team.name)}.`
  );
}

export function ping({ payload }: Helper): string {
  return setupMessage('GitHub', senderName(payload));
}
