import { invalid } from '@confab/errors';
import { notifyOwner, unsupportedEvent, type Integration, type Json, type OwnerNoticeText } from '../framework.js';
import { str } from '../toolkit/wild.js';

/**
 * UptimeRobot (zerver/webhooks/uptimerobot): a monitor that went down or came back up, in the topic of the monitor's
 * name. UptimeRobot's payload is written by the user in its settings: one without the fields answers Zulip's
 * "Invalid payload", and the bot's owner is told how to fix the settings.
 */

const MISCONFIGURED: OwnerNoticeText = ({ botName, supportEmail }) =>
  `Hi there! Your bot ${botName} just received a UptimeRobot payload that is missing\n` +
  'some data that Zulip requires. This usually indicates a configuration issue\n' +
  'in your UptimeRobot webhook settings. Please make sure that you set the required parameters\n' +
  `when configuring the UptimeRobot webhook. Contact ${supportEmail} if you\n` +
  'need further help!';

function field(payload: Json, name: string): string {
  const value = payload[name];
  if (typeof value !== 'string') return notifyOwner(MISCONFIGURED, invalid('Invalid payload'));
  return value;
}

export const uptimerobot: Integration = {
  name: 'uptimerobot',
  webhookName: 'UptimeRobot',
  eventTypes: ['up', 'down'],
  handle(request) {
    const payload = request.json();
    const eventType = str(payload.alert_type_friendly_name);
    let content: string;
    if (eventType === 'Up') {
      content =
        `${field(payload, 'monitor_friendly_name')} (${field(payload, 'monitor_url')}) is back UP ` +
        `(${field(payload, 'alert_details')}).\nIt was down for ${field(payload, 'alert_friendly_duration')}.`;
    } else if (eventType === 'Down') {
      content =
        `${field(payload, 'monitor_friendly_name')} (${field(payload, 'monitor_url')}) is DOWN ` +
        `(${field(payload, 'alert_details')}).`;
    } else {
      return unsupportedEvent(eventType);
    }
    return { topic: field(payload, 'monitor_friendly_name'), content, event: eventType === 'Up' ? 'up' : 'down' };
  },
};
