import type { Integration, Json } from '../framework.js';
import { int, str } from '../toolkit/wild.js';

/**
 * Thinkst Canary (zerver/webhooks/thinkst): an incident of a canary or a canarytoken, with the details Thinkst sends
 * (passwords, a series of stars, in backticks), in the topic "<canary|canarytoken> alert - <name>".
 */

const isCanarytoken = (message: Json) => str(message.AlertType) === 'CanarytokenIncident';
const kind = (message: Json) => (isCanarytoken(message) ? 'canarytoken' : 'canary');
const canaryName = (message: Json) => (isCanarytoken(message) ? str(message.Reminder) : str(message.CanaryName));

function body(message: Json): string {
  const title = isCanarytoken(message) ? 'Canarytoken' : 'Canary';
  let text = `**:alert: ${title} *${canaryName(message)}* has been triggered!**\n\n${str(message.Intro)}\n\n`;
  if ('IncidentHash' in message) text += `**Incident ID:** \`${str(message.IncidentHash)}\`\n`;
  if ('Token' in message) text += `**Token:** \`${str(message.Token)}\`\n`;
  if ('Description' in message) text += `**Kind:** ${str(message.Description)}\n`;
  if ('Timestamp' in message) text += `**Timestamp:** ${str(message.Timestamp)}\n`;
  if ('CanaryIP' in message) text += `**Canary IP:** \`${str(message.CanaryIP)}\`\n`;
  if ('CanaryLocation' in message) text += `**Canary location:** ${str(message.CanaryLocation)}\n`;
  if ('Triggered' in message) {
    const times = int(message.Triggered);
    text += `**Triggered:** ${times} ${times > 1 ? 'times' : 'time'}\n`;
  }
  const sourceIp = 'SourceIP' in message ? str(message.SourceIP) : null;
  // ReverseDNS can be there and empty.
  const reverseDns = 'ReverseDNS' in message && str(message.ReverseDNS) !== '' ? str(message.ReverseDNS) : null;
  if (sourceIp) text += `**Source IP:** \`${sourceIp}\`\n`;
  if (reverseDns) text += `**Reverse DNS:** \`${reverseDns}\`\n`;
  if ('AdditionalDetails' in message) {
    for (const detail of message.AdditionalDetails as Json[]) {
      const key = str(detail[0]);
      const value: unknown = detail[1];
      if (typeof value === 'string') {
        // Thinkst sends passwords as a series of stars, which would read as Markdown.
        text += value.includes('*') ? `**${key}:** \`${value}\`\n` : `**${key}:** ${value}\n`;
      } else {
        text += `**${key}:** ${int(value)}\n`;
      }
    }
  }
  return text;
}

export const thinkst: Integration = {
  name: 'thinkst',
  webhookName: 'Thinkst',
  handle(request) {
    const message = request.json();
    const content = body(message);
    return { topic: `${kind(message)} alert - ${canaryName(message)}`, content };
  },
};
