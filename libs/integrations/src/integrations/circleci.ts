import { invalid } from '@confab/errors';
import type { Integration, Json } from '../framework.js';
import { shortSha } from '../toolkit/git.js';
import { pyStr } from '../toolkit/python.js';
import { int, str, strOrNone } from '../toolkit/wild.js';
import { oneOf, url } from '../toolkit/validators.js';

/**
 * CircleCI (zerver/webhooks/circleci): its webhooks' ping, and completed jobs and workflows of pipelines on GitHub,
 * Bitbucket or GitLab, in the topic of the project's name, with the commit that triggered them.
 */

const FORMATTED_STATUS: Record<string, string> = {
  success: 'has succeeded',
  failed: 'has failed',
  canceled: 'was canceled',
  unauthorized: 'was unauthorized',
  error: 'had an error',
};

function commitDetails(payload: Json): string {
  const pipeline = payload.pipeline;
  let details: string;
  let link: string;
  let author: string;
  let branch: string | null;
  if ('vcs' in pipeline) {
    // GitHub and Bitbucket pipelines.
    const vcs = pipeline.vcs;
    const revision = str(vcs.revision);
    const commitId = shortSha(revision);
    const repository = url(vcs.target_repository_url);
    link = vcs.provider_name === 'github' ? `${repository}/commit/${revision}` : `${repository}/commits/${revision}`;
    branch = strOrNone(vcs.branch);
    const subject = strOrNone(vcs.commit.subject);
    if (!subject) {
      // A pipeline triggered by hand (GitHub and Bitbucket only), or by a tag.
      if (!branch) return `\nTriggered on the latest tag on [${commitId}](${link}).\n`;
      return `\nTriggered on \`${branch}\`'s HEAD on [${commitId}](${link}).\n`;
    }
    details = `${commitId}: ${subject}`;
    author = str(vcs.commit.author.name);
  } else {
    // GitLab pipelines.
    const gitlab = pipeline.trigger_parameters.gitlab;
    const title = str(gitlab.commit_title);
    const sha = str(gitlab.checkout_sha);
    details = `${shortSha(sha)}: ${title}`;
    author = str(gitlab.commit_author_name);
    link = `${url(gitlab.web_url)}/-/commit/${sha}`;
    branch = str(gitlab.branch);
  }
  return `\nTriggered on [\`${details}\`](${link}) on branch \`${pyStr(branch)}\` by ${author}.\n`;
}

function body(payload: Json): string {
  const number = int(payload.pipeline.number);
  const details = commitDetails(payload);
  const type = oneOf(payload.type, ['job-completed', 'workflow-completed']);
  if (type === 'job-completed') {
    const status = pyStr(FORMATTED_STATUS[str(payload.job.status)] ?? null);
    return `\nJob \`${str(payload.job.name)}\` within Pipeline #${number} ${status}.\n${details}\n`;
  }
  const name = str(payload.workflow.name);
  const workflowUrl = url(payload.workflow.url);
  const status = pyStr(FORMATTED_STATUS[str(payload.workflow.status)] ?? null);
  return `\nWorkflow [\`${name}\`](${workflowUrl}) within Pipeline #${number} ${status}.\n${details}\n`;
}

export const circleci: Integration = {
  name: 'circleci',
  webhookName: 'CircleCI',
  eventTypes: ['ping', 'job-completed', 'workflow-completed'],
  handle(request) {
    const payload = request.json();
    const type = str(payload.type);
    if (type === 'ping') {
      // A ping has no pipeline to describe.
      return {
        topic: 'Test event',
        content: `Webhook '${str(payload.webhook.name)}' test event successful.`,
        event: type,
      };
    }
    const topic = str(payload.project.name);
    const content = body(payload);
    const pipeline = payload.pipeline;
    // Only GitHub, Bitbucket and GitLab projects are understood.
    if ('trigger_parameters' in pipeline && pipeline.trigger.type !== 'gitlab') {
      throw invalid("Projects using this version control system provider aren't supported");
    }
    return { topic, content, event: type };
  },
};
