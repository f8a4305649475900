import type { Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';

const STATUS: Record<string, string> = { testing: 'started', error: 'failed', success: 'succeeded' };

/** Codeship (zerver/webhooks/codeship): a build's status, with its committer and branch, in the topic of its project. */
export const codeship: Integration = {
  name: 'codeship',
  webhookName: 'Codeship',
  handle(request) {
    const build = request.json().build;
    const topic = str(build.project_name);
    const url = str(build.build_url);
    const committer = str(build.committer);
    const branch = str(build.branch);
    const status = str(build.status);
    const text = Object.hasOwn(STATUS, status) ? STATUS[status] : `has ${status} status`;
    return { topic, content: `[Build](${url}) triggered by ${committer} on ${branch} branch ${text}.` };
  },
};
