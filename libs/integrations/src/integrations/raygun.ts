import { unsupportedEvent, type Integration, type Json } from '../framework.js';
import { pySorted } from '../toolkit/pyformat.js';
import { pyStr } from '../toolkit/python.js';
import { int, str } from '../toolkit/wild.js';
import { cTime } from './ops-shared.js';

/**
 * Raygun (zerver/webhooks/raygun): errors (new, reoccurred, follow-ups) and the activity on them (status changes,
 * comments, assignments), in the topic "test" as Zulip posts them. The event filters match `event`
 * (error_notification, error_activity).
 */

/** "1970-01-28T01:49:36Z" as C's %c prints it: "Wed Jan 28 01:49:36 1970". */
const parseTime = (timestamp: string) =>
  cTime(timestamp, /^(\d{4})-(\d{1,2})-(\d{1,2})T(\d{1,2}):(\d{1,2}):(\d{1,2})Z?$/);

const userStats = (error: Json) =>
  `* ${int(error.usersAffected)} users affected with ${int(error.totalOccurrences)} total occurrences\n`;
const times = (error: Json) =>
  `* **First occurred**: ${parseTime(str(error.firstOccurredOn))}\n` +
  `* **Last occurred**: ${parseTime(str(error.lastOccurredOn))}\n`;
const messageChunk = (message: string) => (message !== '' ? `* **Message**: ${message}\n` : '');
const appInfo = (app: Json) => `* **Application details**: [${str(app.name)}](${str(app.url)})\n`;

function followUp(payload: Json): string {
  const link = `[follow-up error](${str(payload.error.url)})`;
  const type = str(payload.eventType);
  // "OneMinuteFollowUp" is "One minute", "FiveMinuteFollowUp" "Five minute".
  const prefix = type === 'HourlyFollowUp' ? 'Hourly' : `${type.slice(0, Math.max(0, type.length - 14))} minute`;
  return (
    `${prefix} ${link}:\n${messageChunk(str(payload.error.message))}${times(payload.error)}` +
    `${userStats(payload.error)}${appInfo(payload.application)}`
  );
}

function errorOccurred(payload: Json): string {
  const link = `[Error](${str(payload.error.url)})`;
  const type = str(payload.eventType);
  let text = type === 'NewErrorOccurred' ? `New ${link} occurred:\n` : `${link} reoccurred:\n`;
  text += messageChunk(str(payload.error.message)) + times(payload.error) + userStats(payload.error);
  const instance = payload.error.instance;
  const { tags, affectedUser, customData } = instance;
  if (tags === undefined || affectedUser === undefined || customData === undefined) {
    throw new TypeError('an error instance without its fields');
  }
  if (tags !== null) text += `* **Tags**: ${(tags as unknown[]).map(str).join(', ')}\n`;
  if (affectedUser !== null) {
    const uuid = str(affectedUser.UUID);
    text += `* **Affected user**: ${uuid.slice(0, 6)}...${uuid.slice(-5)}\n`;
  }
  if (customData !== null) {
    for (const key of pySorted(Object.keys(customData))) text += `* **${key}**: ${pyStr(customData[key])}\n`;
  }
  return text + appInfo(payload.application);
}

function activity(payload: Json): string {
  const link = `[Error](${str(payload.error.url)})`;
  const type = str(payload.eventType);
  const user = str(payload.error.user);
  let text = '';
  if (type === 'StatusChanged') text += `${link} status changed to **${str(payload.error.status)}** by ${user}:\n`;
  else if (type === 'CommentAdded') {
    text += `${user} commented on ${link}:\n\n\`\`\` quote\n${str(payload.error.comment)}\n\`\`\`\n`;
  } else if (type === 'AssignedToUser') text += `${user} assigned ${link} to ${str(payload.error.assignedTo)}:\n`;
  return `${text}* **Timestamp**: ${parseTime(str(payload.error.activityDate))}\n${appInfo(payload.application)}`;
}

export const raygun: Integration = {
  name: 'raygun',
  webhookName: 'Raygun',
  eventTypes: ['error_notification', 'error_activity'],
  handle(request) {
    const payload = request.json();
    const event = str(payload.event);
    let content: string;
    if (event === 'error_notification') {
      const type = str(payload.eventType);
      if (type === 'NewErrorOccurred' || type === 'ErrorReoccurred') content = errorOccurred(payload);
      else if (type.includes('FollowUp')) content = followUp(payload);
      else return unsupportedEvent(type);
    } else if (event === 'error_activity') {
      const type = str(payload.eventType);
      if (!['StatusChanged', 'AssignedToUser', 'CommentAdded'].includes(type)) return unsupportedEvent(type);
      content = activity(payload);
    } else {
      return unsupportedEvent(event);
    }
    return { topic: 'test', content, event };
  },
};
