import type { Integration, Json } from '../framework.js';
import { jsonParam } from './ops-shared.js';
import { str } from '../toolkit/wild.js';

/**
 * Travis CI (zerver/webhooks/travis): a build's author, status and links, in the topic "builds". Travis posts the
 * build as JSON in the form field `payload`; its `type` (push, pull_request) is the event the filters match.
 */

const GOOD_STATUSES = ['Passed', 'Fixed'];
const BAD_STATUSES = ['Failed', 'Broken', 'Still Failing', 'Errored', 'Canceled'];
const PENDING_STATUSES = ['Pending'];

function emojiFor(status: string): string {
  if (GOOD_STATUSES.includes(status)) return ':thumbs_up:';
  if (BAD_STATUSES.includes(status)) return ':thumbs_down:';
  if (PENDING_STATUSES.includes(status)) return ':counterclockwise:';
  return `(No emoji specified for status '${status}'.)`;
}

export const travis: Integration = {
  name: 'travis',
  webhookName: 'Travis',
  eventTypes: ['push', 'pull_request'],
  handle(request) {
    const message: Json = jsonParam(request, 'payload');
    const status = str(message.status_message);
    const content =
      `Author: ${str(message.author_name)}\nBuild status: ${status} ${emojiFor(status)}\n` +
      `Details: [changes](${str(message.compare_url)}), [build log](${str(message.build_url)})`;
    return { topic: 'builds', content, event: str(message.type) };
  },
};
