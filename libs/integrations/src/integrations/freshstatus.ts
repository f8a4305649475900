import { invalid } from '@confab/errors';
import { notifyOwner, type Integration, type Json } from '../framework.js';
import { setupMessage } from '../toolkit/headers.js';
import { str } from '../toolkit/wild.js';

/**
 * Freshstatus (zerver/webhooks/freshstatus): incidents opened, their notes and closing, scheduled maintenance
 * planned, its notes and closing, each in the topic of its title; Freshstatus's test event (an incident with id
 * "1") is the setup message. A payload without the fields Zulip needs is answered "Invalid payload", and the bot's
 * owner is told how to fix the webhook's settings.
 */

const EVENT_TYPES = [
  'MAINTENANCE_NOTE_CREATE',
  'INCIDENT_NOTE_CREATE',
  'INCIDENT_OPEN',
  'MAINTENANCE_PLANNED',
  'INCIDENT_REOPEN',
];
const SERVICES_LIMIT = 5;

/** A payload that lacks what Zulip requires (WildValue's ValidationError). */
class MissingData extends Error {}

/** WildValue's `value[key].tame(check_string)`: a missing key or a non-string is a ValidationError. */
function field(value: Json, key: string): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !(key in value)) throw new MissingData();
  const v = value[key];
  if (typeof v !== 'string') throw new MissingData();
  return v;
}

function sub(value: Json, key: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !(key in value)) throw new MissingData();
  return value[key];
}

/**
 * dateutil's parse(text).strftime("%Y-%m-%d %H:%M %Z"): the time as written, with "UTC" for a zero offset (dateutil
 * makes those tzutc) and nothing for any other or none.
 */
function freshstatusTime(text: string): string {
  const m =
    /^\s*(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?\s*(Z|UTC|[+-]\d{2}(?::?\d{2})?)?\s*$/u.exec(
      text,
    );
  if (!m) throw new TypeError(`unparsed time ${text}`);
  const zone = m[6] === undefined ? '' : /^(Z|UTC|[+-]00(:?00)?)$/u.test(m[6]) ? 'UTC' : '';
  return `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]} ${zone}`;
}

function servicesContent(payload: Json): string {
  const services = field(payload, 'affected_services').split(',');
  let content = services
    .slice(0, SERVICES_LIMIT)
    .map((service) => `* ${service}\n`)
    .join('');
  if (services.length > SERVICES_LIMIT) content += `[and ${services.length - SERVICES_LIMIT} more service(s)]`;
  return content.trimEnd();
}

function body(payload: Json): string {
  const eventType = field(sub(payload, 'event_data'), 'event_type');
  if (eventType === 'INCIDENT_OPEN' && field(payload, 'id') === '1') return setupMessage('Freshstatus');
  if (eventType === 'INCIDENT_OPEN') {
    const title = field(payload, 'title');
    const description = field(payload, 'description');
    const start = freshstatusTime(field(payload, 'start_time'));
    return (
      `The following incident has been opened: **${title}**\n**Description:** ${description}\n` +
      `**Start Time:** ${start}\n**Affected Services:**\n${servicesContent(payload)}`
    );
  }
  if (eventType === 'INCIDENT_NOTE_CREATE') {
    const status = field(payload, 'incident_status');
    const title = field(payload, 'title');
    const message = field(payload, 'message');
    if (status === 'Closed') return `The following incident has been closed: **${title}**\n**Note:** ${message}`;
    if (status === 'Open') {
      return `The following note has been added to the incident: **${title}**\n**Note:** ${message}`;
    }
  } else if (eventType === 'MAINTENANCE_PLANNED') {
    const title = field(payload, 'title');
    const description = field(payload, 'description');
    const start = freshstatusTime(field(payload, 'scheduled_start_time'));
    const end = freshstatusTime(field(payload, 'scheduled_end_time'));
    return (
      `The following scheduled maintenance has been opened: **${title}**\n**Description:** ${description}\n` +
      `**Scheduled Start Time:** ${start}\n**Scheduled End Time:** ${end}\n` +
      `**Affected Services:**\n${servicesContent(payload)}`
    );
  } else if (eventType === 'MAINTENANCE_NOTE_CREATE') {
    const title = field(payload, 'title');
    const message = field(payload, 'message');
    if (field(payload, 'incident_status') === 'Closed') {
      return `The following scheduled maintenance has been closed: **${title}**\n**Note:** ${message}`;
    }
    return `The following note has been added to the scheduled maintenance: **${title}**\n**Note:** ${message}`;
  }
  return `The event (${eventType}) is not supported yet.`;
}

function topic(payload: Json): string {
  const eventType = field(sub(payload, 'event_data'), 'event_type');
  if (eventType === 'INCIDENT_OPEN' && field(payload, 'id') === '1') return 'Freshstatus';
  return field(payload, 'title');
}

/** Zulip's MISCONFIGURED_PAYLOAD_ERROR_MESSAGE (stripped). */
function misconfiguredNotice(facts: { botName: string; supportEmail: string }): string {
  return (
    `Hi there! Your bot ${facts.botName} just received a Freshstatus payload that is missing\n` +
    'some data that Zulip requires. This usually indicates a configuration issue\n' +
    'in your Freshstatus webhook settings. Please make sure that you provide all the required parameters\n' +
    `when configuring the Freshstatus webhook. Contact ${facts.supportEmail} if you\n` +
    'need further help!'
  );
}

export const freshstatus: Integration = {
  name: 'freshstatus',
  webhookName: 'Freshstatus',
  eventTypes: EVENT_TYPES,
  handle(request) {
    const payload = request.json();
    let content: string;
    let title: string;
    try {
      content = body(payload);
      title = topic(payload);
    } catch (err) {
      if (err instanceof MissingData) notifyOwner(misconfiguredNotice, invalid('Invalid payload'));
      throw err;
    }
    return { topic: title, content, event: str(payload.event_data.event_type) };
  },
};
