import type { Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';

/**
 * Splunk (zerver/webhooks/splunk): a saved search's alert, in the topic of the search's name (cut to 60 characters
 * as Zulip cuts it, with "..."). Fields a search leaves out are written as "Missing <field>".
 */

const MAX_TOPIC_NAME_LENGTH = 60;

export const splunk: Integration = {
  name: 'splunk',
  webhookName: 'Splunk',
  handle(request) {
    const payload = request.json();
    const result = payload.result ?? {};
    const search = str(payload.search_name ?? 'Missing search_name');
    const link = str(payload.results_link ?? 'Missing results_link');
    const host = str(result.host ?? 'Missing host');
    const source = str(result.source ?? 'Missing source');
    const raw = str(result._raw ?? 'Missing _raw');
    const chars = Array.from(search);
    const topic =
      chars.length >= MAX_TOPIC_NAME_LENGTH ? `${chars.slice(0, MAX_TOPIC_NAME_LENGTH - 3).join('')}...` : search;
    const content =
      `Splunk alert from saved search:\n* **Search**: [${search}](${link})\n* **Host**: ${host}\n` +
      `* **Source**: \`${source}\`\n* **Raw**: \`${raw}\``;
    return { topic, content };
  },
};
