import type { Integration, Json } from '../framework.js';
import { pyCompare } from '../toolkit/pyformat.js';
import { int, str } from '../toolkit/wild.js';
import { bool, getOr, items } from '../toolkit/validators.js';

/**
 * Ansible Tower / AWX (zerver/webhooks/ansibletower): a finished job, project update, inventory update, ad hoc
 * command or system job, in the topic of its name; a playbook job lists its hosts, by name, with how each fared.
 */

/** The kind of job: AWX's friendly_name, else (older AWX) guessed from its URL ("…/#/jobs/<kind>/<id>"). */
function friendlyName(payload: Json): string {
  let name = str(getOr(payload, 'friendly_name', ''));
  if (!name) {
    const segments = str(payload.url).split('/');
    name = segments.at(-3)!;
    if (name === 'jobs') name = 'Job';
  }
  return name;
}

function body(payload: Json): string {
  const kind = friendlyName(payload);
  const status = str(payload.status) === 'successful' ? 'was successful' : 'failed';
  const link = `${kind}: [#${int(payload.id)} ${str(payload.name)}](${str(payload.url)}) ${status}`;
  if (kind !== 'Job') return `${link}.`;
  const hosts = items(payload.hosts)
    .map(([host, data]) => ({ host, status: bool(data.failed) ? 'Failed' : 'Success' }))
    .sort((a, b) => pyCompare(a.host, b.host));
  return `${link}:\n${hosts.map((h) => `* ${h.host}: ${h.status}\n`).join('')}`;
}

export const ansibletower: Integration = {
  name: 'ansibletower',
  webhookName: 'AnsibleTower',
  handle(request) {
    const payload = request.json();
    const content = body(payload);
    return { topic: str(payload.name), content };
  },
};
