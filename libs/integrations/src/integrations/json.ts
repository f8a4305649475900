import type { Integration } from '../framework.js';
import { pyJsonDumps } from '../toolkit/pyjson.js';

/** The JSON formatter (zerver/webhooks/json): any JSON body, pretty-printed in a code block, in the topic "JSON". */
export const json: Integration = {
  name: 'json',
  webhookName: 'JSON',
  handle(request) {
    return { topic: 'JSON', content: '```json\n' + pyJsonDumps(request.json(), 2) + '\n```' };
  },
};
