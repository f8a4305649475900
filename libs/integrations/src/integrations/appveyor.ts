import type { Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';

/**
 * AppVeyor (zerver/webhooks/appveyor): a finished build, its commit and times (as AppVeyor writes them), in the topic
 * of its project.
 */
export const appveyor: Integration = {
  name: 'appveyor',
  webhookName: 'Appveyor',
  handle(request) {
    const data = request.json().eventData;
    const field = (name: string) => str(data[name]);
    const fields = Object.fromEntries(
      [
        'projectName',
        'buildVersion',
        'status',
        'buildUrl',
        'commitUrl',
        'committerName',
        'commitDate',
        'commitMessage',
        'commitId',
        'started',
        'finished',
      ].map((name) => [name, field(name)]),
    ) as Record<string, string>;
    const content =
      `[Build ${fields.projectName} ${fields.buildVersion} ${fields.status}](${fields.buildUrl}):\n` +
      `* **Commit**: [${fields.commitId}: ${fields.commitMessage}](${fields.commitUrl}) by ${fields.committerName}\n` +
      `* **Started**: ${fields.started}\n` +
      `* **Finished**: ${fields.finished}`;
    return { topic: fields.projectName!, content };
  },
};
