import { unsupportedEvent, type Integration } from '../framework.js';
import { setupMessage } from '../toolkit/headers.js';
import { int, str } from '../toolkit/wild.js';

/** Freshping's check states, and the event types Zulip names them by. */
const EVENT_TYPES: Record<string, string> = { 'Reporting Error': 'reporting_error', Available: 'available' };

/**
 * Freshping (zerver/webhooks/freshping): a check that became unreachable or is back up, in the topic of the check;
 * Freshping's test ("Webhook test") is the setup message.
 */
export const freshping: Integration = {
  name: 'freshping',
  webhookName: 'Freshping',
  eventTypes: Object.values(EVENT_TYPES),
  handle(request) {
    const data = request.json().webhook_event_data;
    const state = str(data.check_state_name);
    if (!Object.hasOwn(EVENT_TYPES, state)) unsupportedEvent(state);
    const isTest = str(data.application_name) === 'Webhook test';
    let content: string;
    if (state === 'Reporting Error') {
      content = `${str(data.request_url)} has just become unreachable.\nError code: ${int(data.http_status_code)}.`;
    } else {
      content = isTest ? setupMessage('Freshping') : `${str(data.request_url)} is back up and no longer unreachable.`;
    }
    const topic = isTest ? 'Freshping' : str(data.check_name);
    return { topic, content, event: EVENT_TYPES[state] };
  },
};
