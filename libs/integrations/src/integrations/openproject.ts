import { unsupportedEvent, type Integration, type Json } from '../framework.js';
import { str } from '../toolkit/wild.js';

/**
 * OpenProject (zerver/webhooks/openproject): projects, work packages, attachments and time entries created or
 * updated, in the topic of the project's name.
 */

/** Python's `.get(key, {})` down a path, then the str found there ("" when a step is missing). */
function optionalText(value: Json, path: readonly string[]): string {
  let node: Json = value;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || !(key in node)) return '';
    node = node[key];
  }
  return str(node);
}

const DURATION = /^P(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/;

/** An ISO 8601 duration in words ("PT7H42M": "7 hours and 42 minutes"); null when it is not one. */
export function formatDuration(iso: string): string | null {
  const match = DURATION.exec(iso);
  if (!match) return null;
  const parts = (['days', 'hours', 'minutes', 'seconds'] as const).flatMap((unit, i) => {
    const value = match[i + 1];
    if (!value) return [];
    const n = Number(value);
    return [`${n} ${n === 1 ? unit.slice(0, -1) : unit}`];
  });
  // "P" or "PT" alone: Zulip's view fails on it (an IndexError), not a duration to show.
  if (parts.length === 0) throw new TypeError('a duration without any part');
  return parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0]!;
}

export const openproject: Integration = {
  name: 'openproject',
  webhookName: 'OpenProject',
  eventTypes: [
    'project:created',
    'project:updated',
    'work_package:created',
    'work_package:updated',
    'time_entry:created',
    'attachment:created',
  ],
  handle(request) {
    const payload = request.json();
    const eventType = str(payload.action);
    const parts = eventType.split(':');
    if (parts.length !== 2) return unsupportedEvent(eventType);
    const [item, action] = parts as [string, string];
    const data = payload[item];
    switch (item) {
      case 'project': {
        const parent = optionalText(data, ['_embedded', 'parent', 'name']);
        const inParent = parent && action === 'created' ? ` as a sub-project of **${parent}**` : '';
        const name = str(data.name);
        return { topic: name, content: `Project **${name}** was ${action}${inParent}.` };
      }
      case 'work_package': {
        const embedded = data._embedded;
        return {
          topic: str(embedded.project.name),
          content:
            `**${str(data.subject)}** (work package **${str(embedded.type.name)}**) was ${action} ` +
            `by **${str(embedded.author.name)}**.`,
        };
      }
      case 'attachment': {
        const container = data._embedded.container;
        return {
          topic: str(container._links.project.title),
          content:
            `**${str(data._embedded.author.name)}** uploaded **${str(data.fileName)}** in ` +
            `**${str(container.subject)}**.`,
        };
      }
      case 'time_entry': {
        const project = str(data._embedded.project.name);
        const workPackage = optionalText(data, ['_embedded', 'workPackage', 'subject']);
        const duration = formatDuration(str(data.hours));
        const logged = duration === null ? 'a time entry' : `**${duration}**`;
        return {
          topic: project,
          content: `**${str(data._embedded.user.name)}** logged ${logged} on **${workPackage || project}**.`,
        };
      }
      default:
        return unsupportedEvent(eventType);
    }
  },
};
