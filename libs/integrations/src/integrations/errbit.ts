import type { Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';

/** Errbit (zerver/webhooks/errbit): a problem's class (linked) and message, in the topic "<app> / <environment>". */
export const errbit: Integration = {
  name: 'errbit',
  webhookName: 'Errbit',
  handle(request) {
    const problem = request.json().problem;
    const topic = `${str(problem.app_name)} / ${str(problem.environment)}`;
    const content = `[${str(problem.error_class)}](${str(problem.url)}): "${str(problem.message)}" occurred.`;
    return { topic, content };
  },
};
