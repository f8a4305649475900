import type { Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';

/** Airbrake (zerver/webhooks/airbrake): an error's class (linked) and message, in the topic of its project. */
export const airbrake: Integration = {
  name: 'airbrake',
  webhookName: 'Airbrake',
  handle(request) {
    const payload = request.json();
    const topic = str(payload.error.project.name);
    const url = str(payload.airbrake_error_url);
    const content = `[${str(payload.error.error_class)}](${url}): "${str(payload.error.error_message)}" occurred.`;
    return { topic, content };
  },
};
