import type { Integration, Json } from '../framework.js';
import { int, str } from '../toolkit/wild.js';

/** Buildbot's result codes (docs.buildbot.net, developer/results), by number. */
const RESULTS = ['success', 'warnings', 'failure', 'skipped', 'exception', 'retry', 'cancelled'];

/** A result code as Zulip reads it: Python's tuple index, where -1 is the last; beyond the tuple, no Buildbot's. */
function result(code: number): string {
  const index = code < 0 ? RESULTS.length + code : code;
  const name = RESULTS[index];
  if (name === undefined) throw new TypeError(`unknown result ${code}`);
  return name;
}

function message(payload: Json): string {
  const status = 'results' in payload ? result(int(payload.results)) : undefined;
  const event = str(payload.event);
  const id = int(payload.buildid);
  const name = str(payload.buildername);
  const url = str(payload.url);
  if (event === 'new') return `Build [#${id}](${url}) for **${name}** started.`;
  // Any other event, or a finished build without its results, is no Buildbot payload.
  if (event !== 'finished' || status === undefined) throw new TypeError(`unexpected event ${event}`);
  return `Build [#${id}](${url}) (result: ${status}) for **${name}** finished.`;
}

/** Buildbot (zerver/webhooks/buildbot): builds started and finished, in the topic of the project ("general"). */
export const buildbot: Integration = {
  name: 'buildbot',
  webhookName: 'Buildbot',
  eventTypes: ['new', 'finished'],
  handle(request) {
    const payload = request.json();
    const topic = str(payload.project) || 'general';
    const content = message(payload);
    return { topic, content, event: str(payload.event) };
  },
};
