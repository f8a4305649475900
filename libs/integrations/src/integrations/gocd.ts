import type { Integration, Json } from '../framework.js';
import { shortSha } from '../toolkit/git.js';
import { list, str } from '../toolkit/wild.js';

/**
 * GoCD (zerver/webhooks/gocd, through Sentry's GoCD WebHook Notification plugin): a stage building or completed, with
 * the commit that caused it and, once completed, its jobs by result, in the topic "<pipeline> / <stage>". Other
 * notifications (agents) post nothing.
 */

function commitDetails(pipeline: Json): string {
  const build = list(pipeline['build-cause'])[0] as Json;
  const material = build.material;
  const base = str(material['git-configuration'].url);
  const sha = shortSha(str((list(build.modifications)[0] as Json).revision));
  const branch = str(material['git-configuration'].branch);
  return `[\`${sha}\`](${base}/commit/${sha}) on branch \`${branch}\``;
}

function jobsDetails(stage: Json): string {
  const byResult = new Map<string, string[]>();
  for (const job of list(stage.jobs) as Json[]) {
    const name = str(job.name);
    const result = str(job.result);
    if (!byResult.has(result)) byResult.set(result, []);
    byResult.get(result)!.push(`\`${name}\``);
  }
  return [...byResult].map(([result, jobs]) => `- **${result}**: ${jobs.join(', ')}\n`).join('');
}

function body(pipeline: Json): string {
  const commit = commitDetails(pipeline);
  const stage = pipeline.stage;
  const status = str(stage.state).toLowerCase();
  const name = str(pipeline.name);
  const stageName = str(stage.name);
  const start = str(stage['create-time']);
  if (status === 'building') {
    return `\n**Pipeline ${status}**: ${name} / ${stageName}\n- **Commit**: ${commit}\n- **Started**: ${start}\n`;
  }
  const result = str(stage.result);
  const emoji = result === 'Passed' ? ':green_circle:' : ':red_circle:';
  const end = str(stage['last-transition-time']);
  return (
    `\n${emoji} **Build ${status}**: ${name} / ${stageName}\n- **Commit**: ${commit}\n` +
    `- **Started**: ${start}\n- **Finished**: ${end}\n${jobsDetails(stage)}`
  );
}

export const gocd: Integration = {
  name: 'gocd',
  webhookName: 'Gocd',
  handle(request) {
    const payload = request.json();
    if (str(payload.type) !== 'stage') return null;
    const pipeline = payload.data.pipeline;
    const content = body(pipeline);
    return { topic: `${str(pipeline.name)} / ${str(pipeline.stage.name)}`, content };
  },
};
