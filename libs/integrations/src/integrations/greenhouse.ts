import type { Integration, Json } from '../framework.js';
import { pyTitle } from '../toolkit/python.js';
import { int, str, strOrNone } from '../toolkit/wild.js';

/**
 * Greenhouse (zerver/webhooks/greenhouse): what happened to a candidate's application, with the role, the
 * candidate's emails and attachments, in the topic "<Action> - <candidate id>". Greenhouse's ping posts nothing.
 */

/** "work@example.com (Work), …" of emails, "[Resume](url), …" of attachments. */
function listed(items: Json[]): string {
  const chunks: string[] = [];
  for (const item of items) {
    const type = pyTitle(str(item.type ?? ''));
    const value = strOrNone(item.value);
    const url = strOrNone(item.url);
    if (type && value) chunks.push(`${value} (${type})`);
    else if (type && url) chunks.push(`[${type}](${url})`);
  }
  return chunks.join(', ');
}

export const greenhouse: Integration = {
  name: 'greenhouse',
  webhookName: 'Greenhouse',
  handle(request) {
    const payload = request.json();
    const rawAction = str(payload.action);
    if (rawAction === 'ping') return null;
    const application = payload.payload.application;
    const candidate = rawAction === 'update_candidate' ? payload.payload.candidate : application.candidate;
    const action = pyTitle(rawAction.split('_').join(' '));
    const id = int(candidate.id);
    const content =
      `${action} ${str(candidate.first_name)} ${str(candidate.last_name)} (ID: ${id}), applying for:\n` +
      `* **Role**: ${str(application.jobs[0].name)}\n` +
      `* **Emails**: ${listed(application.candidate.email_addresses)}\n` +
      `* **Attachments**: ${listed(application.candidate.attachments)}`;
    return { topic: `${action} - ${id}`, content };
  },
};
