import type { Integration, Json } from '../framework.js';
import { pyCapitalize, pyStr } from '../toolkit/python.js';
import { int, str, strOrNone } from '../toolkit/wild.js';

/**
 * New Relic (zerver/webhooks/newrelic): an incident of New Relic's workflows (its default payload, or the one its
 * docs suggest with an owner and `zulipCustomFields`), in the topic of the incident's title; a payload without the
 * fields the message needs is posted as a warning listing them, in the topic "New Relic incident alerts".
 */

const EVENT_TYPES = ['CREATED', 'ACTIVATED', 'CLOSED'];
const PRIORITIES: Record<string, string> = {
  CRITICAL: ':red_circle:',
  HIGH: ':orange_circle:',
  MEDIUM: ':yellow:',
  LOW: ':blue_circle:',
};
const DEFAULT_URL = 'https://one.newrelic.com/alerts-ai';
const EXPECTED_FIELDS = [
  'issueUrl',
  'title',
  'priority',
  'totalIncidents',
  'state',
  'createdAt',
  'updatedAt',
  'alertPolicyNames',
  'alertConditionNames',
];

/** Zulip's datetime_to_global_time of a millisecond timestamp: "<time: 2024-04-22 07:08:28.699000+00:00 >". */
function globalTime(milliseconds: number): string {
  const date = new Date(milliseconds);
  const text = date
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '');
  const micro = (((milliseconds % 1000) + 1000) % 1000) * 1000;
  // Python's str(datetime) leaves out a zero microsecond.
  const fraction = micro === 0 ? '' : `.${String(Math.round(micro)).padStart(6, '0')}`;
  return `<time: ${text}${fraction}+00:00 >`;
}

function oneOf(value: unknown, allowed: readonly string[]): string {
  const text = str(value);
  if (!allowed.includes(text)) throw new TypeError(`not one of ${allowed.join(', ')}`);
  return text;
}

function strings(value: unknown): string[] {
  if (!Array.isArray(value)) throw new TypeError('expected a list');
  return value.map(str);
}

/** A custom field's value if it is a number, a string, None or a list of those (Python's bool is an int). */
function customValue(value: unknown): string | null {
  const scalar = (v: unknown) => v === null || ['number', 'string', 'boolean'].includes(typeof v);
  if (scalar(value)) return pyStr(value);
  if (Array.isArray(value) && value.every(scalar)) return value.map(pyStr).join(', ');
  return null;
}

function customFields(payload: Json): string {
  const fields = payload.zulipCustomFields ?? {};
  let out = '';
  for (const [key, value] of Object.entries(fields as Record<string, unknown>)) {
    const detail = customValue(value);
    out += `- **${pyCapitalize(key)}**: ${detail ?? '*Value is not a supported data type*'}\n`;
  }
  return out;
}

export const newrelic: Integration = {
  name: 'newrelic',
  webhookName: 'NewRelic',
  eventTypes: EVENT_TYPES,
  handle(request) {
    const payload = request.json();
    const missing = EXPECTED_FIELDS.filter((key) => !(key in payload));
    if (missing.length > 0) {
      return {
        topic: 'New Relic incident alerts',
        content:
          `\n:danger: A New Relic [incident](${DEFAULT_URL}) updated\n\n**Warning**: Unable to use the default ` +
          'notification format because at least one expected field was missing from the incident payload. See ' +
          '[New Relic integration documentation](/integrations/doc/newrelic).\n\n' +
          `**Missing fields**: ${missing.map((f) => `\`${f}\``).join(', ')}\n`,
      };
    }
    const priority = oneOf(payload.priority, Object.keys(PRIORITIES));
    const conditions = strings(payload.alertConditionNames ?? ['Unknown condition'])
      .map((c) => `\`${c}\``)
      .join(', ');
    const policies = strings(payload.alertPolicyNames ?? ['Unknown policy'])
      .map((p) => `\`${p}\``)
      .join(', ');
    const owner = strOrNone(payload.owner);
    const acknowledged = owner && owner !== 'N/A' ? `**Acknowledged by**: ${owner}` : '';
    const title = str(payload.title);
    const url = str(payload.issueUrl ?? DEFAULT_URL);
    const total = int(payload.totalIncidents);
    const state = oneOf(payload.state, EVENT_TYPES);
    const created = globalTime(int(payload.createdAt));
    const updated = globalTime(int(payload.updatedAt));
    const details =
      `\n- **Alert policies**: ${policies}\n- **Conditions**: ${conditions}\n- **Total incidents**: ${total}\n` +
      `- **Incident created at**: ${created}\n${customFields(payload)}`;
    const content =
      `\n${PRIORITIES[priority]} **[${title}](${url})**\n\n\`\`\`quote\n**Priority**: ${priority}\n` +
      `**State**: ${state}\n**Updated at**: ${updated}\n${acknowledged}\n\`\`\`\n\n` +
      `\`\`\`spoiler :file: Incident details\n${details}\n\`\`\`\n`;
    return { topic: title, content, event: state };
  },
};
