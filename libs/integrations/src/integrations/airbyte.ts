import type { Integration, Json } from '../framework.js';
import { int, str } from '../toolkit/wild.js';
import { bool } from '../toolkit/validators.js';

/**
 * Airbyte (zerver/webhooks/airbyte): a connection's sync, succeeded or failed, with its source, destination, records,
 * bytes and duration, in the topic "<workspace> - <connection>"; Airbyte's test notifications are posted as they are.
 */
function syncMessage(data: Json): { topic: string; content: string } {
  const workspace = str(data.workspace.name);
  const connection = str(data.connection.name);
  const source = str(data.source.name);
  const destination = str(data.destination.name);
  const connectionUrl = str(data.connection.url);
  const sourceUrl = str(data.source.url);
  const destinationUrl = str(data.destination.url);
  const success = bool(data.success);
  const duration = str(data.durationFormatted);
  const recordsEmitted = int(data.recordsEmitted);
  const recordsCommitted = int(data.recordsCommitted);
  const bytesEmitted = str(data.bytesEmittedFormatted);
  const bytesCommitted = str(data.bytesCommittedFormatted);
  const errorMessage = success ? null : str(data.errorMessage);
  let content =
    `${success ? ':green_circle:' : ':red_circle:'} Airbyte sync **${success ? 'succeeded' : 'failed'}** for ` +
    `[${connection}](${connectionUrl}).\n\n\n` +
    `* **Source:** [${source}](${sourceUrl})\n` +
    `* **Destination:** [${destination}](${destinationUrl})\n` +
    `* **Records:** ${recordsEmitted} emitted, ${recordsCommitted} committed\n` +
    `* **Bytes:** ${bytesEmitted} emitted, ${bytesCommitted} committed\n` +
    `* **Duration:** ${duration}\n`;
  if (errorMessage !== null) content += `\n**Error message:** ${errorMessage}`;
  return { topic: `${workspace} - ${connection}`, content };
}

export const airbyte: Integration = {
  name: 'airbyte',
  webhookName: 'Airbyte',
  handle(request) {
    const payload = request.json();
    if ('data' in payload) return syncMessage(payload.data);
    // Airbyte's test notifications carry only a text.
    return { topic: 'Airbyte notification', content: str(payload.text) };
  },
};
