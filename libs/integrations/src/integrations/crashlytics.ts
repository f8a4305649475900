import type { Integration } from '../framework.js';
import { int, str } from '../toolkit/wild.js';

/** Crashlytics (zerver/webhooks/crashlytics): an issue's impact, in the topic "<id>: <title>"; its verification. */
export const crashlytics: Integration = {
  name: 'crashlytics',
  webhookName: 'Crashlytics',
  handle(request) {
    const payload = request.json();
    if (str(payload.event) === 'verification') {
      return { topic: 'Setup', content: 'Webhook has been successfully configured.' };
    }
    const issue = payload.payload;
    const topic = `${int(issue.display_id)}: ${str(issue.title)}`;
    const devices = int(issue.impacted_devices_count);
    return { topic, content: `[Issue](${str(issue.url)}) impacts at least ${devices} device(s).` };
  },
};
