import type { Integration } from '../framework.js';
import { requiredParam } from '../toolkit/params.js';

/** Heroku's deploy hooks (zerver/webhooks/heroku): who deployed which version, and its git log, in the app's topic. */
export const heroku: Integration = {
  name: 'heroku',
  webhookName: 'Heroku',
  notifyOnInvalidJson: false,
  handle(request) {
    const head = requiredParam(request, 'head');
    const app = requiredParam(request, 'app');
    const user = requiredParam(request, 'user');
    const url = requiredParam(request, 'url');
    const gitLog = requiredParam(request, 'git_log');
    return {
      topic: app,
      content: `${user} deployed version ${head} of [${app}](${url}):\n\n\`\`\` quote\n${gitLog}\n\`\`\``,
    };
  },
};
