import type { Integration } from '../framework.js';
import { int, str } from '../toolkit/wild.js';
import { cTime } from './ops-shared.js';

/** Insping (zerver/webhooks/insping): a website's state change, with its response time, in the topic "insping". */

export const insping: Integration = {
  name: 'insping',
  webhookName: 'Insping',
  handle(request) {
    const data = request.json().webhook_event_data;
    const state = str(data.check_state_name);
    const url = str(data.request_url);
    const responseTime = int(data.response_time);
    const timestamp = cTime(
      str(data.request_start_time),
      /^(\d{4})-(\d{1,2})-(\d{1,2})T(\d{1,2}):(\d{1,2}):(\d{1,2})\.\d{1,6}\+00:00$/,
    );
    return {
      topic: 'insping',
      content:
        `State changed to **${state}**:\n* **URL**: ${url}\n* **Response time**: ${responseTime} ms\n` +
        `* **Timestamp**: ${timestamp}`,
    };
  },
};
