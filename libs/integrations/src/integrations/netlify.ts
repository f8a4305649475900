import { unsupportedEvent, type Integration } from '../framework.js';
import { eventHeader } from '../toolkit/headers.js';
import { str } from '../toolkit/wild.js';

/**
 * Netlify (zerver/webhooks/netlify): a deploy's state (building, ready, failed, locked, unlocked) by its
 * X-Netlify-Event header, in the topic of the deploy's branch.
 */

const EVENT_TYPES = ['deploy_failed', 'deploy_locked', 'deploy_unlocked', 'deploy_building', 'deploy_created'];

export const netlify: Integration = {
  name: 'netlify',
  webhookName: 'Netlify',
  eventTypes: EVENT_TYPES,
  handle(request) {
    const payload = request.json();
    const event = eventHeader(request, 'X-Netlify-Event', 'Netlify');
    let ending: string;
    if (event === 'deploy_failed') ending = str(payload.error_message);
    else if (event === 'deploy_locked') ending = 'is now locked.';
    else if (event === 'deploy_unlocked') ending = 'is now unlocked.';
    else if (EVENT_TYPES.includes(event)) ending = `is now ${str(payload.state)}.`;
    else return unsupportedEvent(event);
    const branch = str(payload.branch);
    const content = `The build [${str(payload.name)}](${str(payload.url)}) on branch ${branch} ${ending}`;
    str(payload.state); // Zulip's view insists on the state, even where the text does not show it
    return { topic: branch, content, event };
  },
};
