import type { Integration, Json } from '../framework.js';
import { shortSha } from '../toolkit/git.js';
import { int, str } from '../toolkit/wild.js';

/**
 * Semaphore (zerver/webhooks/semaphore): Semaphore Classic's builds and deploys, and Semaphore 2.0's pipelines of
 * pushes, pull requests and tags, in the topic "<project>/<branch>" (the project alone for a tag). Semaphore 2.0
 * sends no URLs: for a GitHub repository they are made from the repository's, otherwise the text has no links.
 */

// The line boundaries of Python's str.splitlines().
const LINE_BREAKS = new Set(['\n', '\r', '\v', '\f', '\u001c', '\u001d', '\u001e', '\u0085', '\u2028', '\u2029']);

/** The first line, as Python's str.splitlines() gives it (a message with none is an IndexError in Zulip). */
function summaryLine(message: string): string {
  if (message === '') throw new TypeError('an empty commit message');
  const end = [...message].findIndex((ch) => LINE_BREAKS.has(ch));
  return end === -1 ? message : [...message].slice(0, end).join('');
}

function classic(payload: Json): [string, string, string, string] {
  const branch = str(payload.branch_name);
  const project = str(payload.project_name);
  const result = str(payload.result);
  const event = str(payload.event);
  const commitId = str(payload.commit.id);
  const commitUrl = str(payload.commit.url);
  const email = str(payload.commit.author_email);
  const message = summaryLine(str(payload.commit.message));
  const commit = `* **Commit**: [${shortSha(commitId)}: ${message}](${commitUrl})\n* **Author**: ${email}`;
  let content: string;
  if (event === 'build') {
    content = `[Build ${int(payload.build_number)}](${str(payload.build_url)}) ${result}:\n${commit}`;
  } else if (event === 'deploy') {
    const buildUrl = str(payload.build_html_url);
    const buildNumber = int(payload.build_number);
    content =
      `[Deploy ${int(payload.number)}](${str(payload.html_url)}) of [build ${buildNumber}](${buildUrl}) ` +
      `${result}:\n${commit}\n* **Server**: ${str(payload.server_name)}`;
  } else {
    content = `${event}: ${result}`;
  }
  return [content, project, branch, event];
}

function isGithubRepo(url: string): boolean {
  try {
    return new URL(url).hostname === 'github.com';
  } catch {
    return false;
  }
}

function semaphore2(payload: Json): [string, string, string, string] {
  const repoUrl = str(payload.repository.url);
  const project = str(payload.project.name);
  const organization = str(payload.organization.name);
  const author = str(payload.revision.sender.login);
  const workflowId = str(payload.workflow.id);
  const github = isGithubRepo(repoUrl);
  const authorText = github ? `[${author}](https://github.com/${author})` : author;
  const head =
    `[${str(payload.pipeline.name)}](https://${organization}.semaphoreci.com/workflows/${workflowId}) ` +
    `pipeline **${str(payload.pipeline.result)}**`;
  const event = str(payload.revision.reference_type);
  if (event === 'branch') {
    const commitId = str(payload.revision.commit_sha);
    const branch = str(payload.revision.branch.name);
    const message = summaryLine(str(payload.revision.commit_message));
    const commit = github
      ? `[(${shortSha(commitId)})](${repoUrl}/commit/${commitId}) ${message}`
      : `(${shortSha(commitId)}) ${message}`;
    return [
      `${head}:\n* **Commit**: ${commit}\n* **Branch**: ${branch}\n* **Author**: ${authorText}`,
      project,
      branch,
      event,
    ];
  }
  if (event === 'pull_request') {
    const pullRequest = payload.revision.pull_request;
    const branch = str(pullRequest.branch_name);
    const title = str(pullRequest.name);
    const number = str(pullRequest.number);
    const pr = github ? `[${title}](${repoUrl}/pull/${number})` : `${title} (#${number})`;
    return [
      `${head}:\n* **Pull request**: ${pr}\n* **Branch**: ${branch}\n* **Author**: ${authorText}`,
      project,
      branch,
      event,
    ];
  }
  if (event === 'tag') {
    const tag = str(payload.revision.tag.name);
    const tagText = github ? `[${tag}](${repoUrl}/tree/${tag})` : tag;
    return [`${head}:\n* **Tag**: ${tagText}\n* **Author**: ${authorText}`, project, '', event];
  }
  return [`${head} for ${event} event`, project, '', event];
}

export const semaphore: Integration = {
  name: 'semaphore',
  webhookName: 'Semaphore',
  eventTypes: ['build', 'tag', 'unknown', 'branch', 'deploy', 'pull_request'],
  handle(request) {
    const payload = request.json();
    const [content, project, branch, event] =
      typeof payload === 'object' && payload !== null && 'event' in payload ? classic(payload) : semaphore2(payload);
    return { topic: branch ? `${project}/${branch}` : project, content, event };
  },
};
