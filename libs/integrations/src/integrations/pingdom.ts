import { unsupportedEvent, type Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';

/**
 * Pingdom (zerver/webhooks/pingdom): a check's state change (with Pingdom's description when it went down), in the
 * topic "<check name> status."; the check's type is the event the filters match.
 */

const CHECK_TYPES = ['HTTP', 'HTTP_CUSTOM', 'HTTPS', 'SMTP', 'POP3', 'IMAP', 'PING', 'DNS', 'UDP', 'PORT_TCP'];

export const pingdom: Integration = {
  name: 'pingdom',
  webhookName: 'Pingdom',
  eventTypes: CHECK_TYPES,
  handle(request) {
    const payload = request.json();
    const type = str(payload.check_type);
    if (!CHECK_TYPES.includes(type)) return unsupportedEvent(type);
    const topic = `${str(payload.check_name)} status.`;
    const current = str(payload.current_state);
    const previous = str(payload.previous_state);
    const head = `Service ${str(payload.check_params.hostname)} changed its ${type} status from ${previous} to ${current}`;
    const content =
      current === 'DOWN' && previous === 'UP'
        ? `${head}:\n\n\`\`\` quote\n${str(payload.long_description)}\n\`\`\``
        : `${head}.`;
    return { topic, content, event: type };
  },
};
