import type { Integration } from '../framework.js';
import { int, str } from '../toolkit/wild.js';

/** Rundeck (zerver/webhooks/rundeck): a job execution started, succeeded, failed or running long, in the job's topic. */

export const rundeck: Integration = {
  name: 'rundeck',
  webhookName: 'Rundeck',
  handle(request) {
    const payload = request.json();
    const execution = payload.execution;
    const job = str(execution.job.name);
    const link = str(execution.job.permalink);
    const id = int(execution.id);
    const href = str(execution.href);
    const project = str(execution.project);
    const status = str(execution.status);
    let text: string;
    let emoji: string;
    if (status === 'failed') [text, emoji] = ['has failed', 'cross_mark'];
    else if (status === 'succeeded') [text, emoji] = ['has succeeded', 'check'];
    else if (status === 'running') {
      [text, emoji] =
        str(payload.trigger) === 'avgduration' ? ['is running long', 'time_ticking'] : ['has started', 'running'];
    } else if (status === 'scheduled') [text, emoji] = ['has started', 'running'];
    // Zulip's template has no emoji for another status (a KeyError there): not Rundeck's payload.
    else throw new TypeError(`an execution status of ${status}`);
    return {
      topic: job,
      content: `[${job}](${link}) execution [#${id}](${href}) for ${project} ${text}. :${emoji}:`,
    };
  },
};
