import { invalid } from '@confab/errors';
import { WebhookResponse, type Integration, type Json } from '../framework.js';
import { strOrNone } from '../toolkit/wild.js';

/** WildValue's payload.get(key): absent is None; the payload itself must be a dict. */
export function getOrNone(payload: Json, key: string): unknown {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) throw new TypeError('not a dict');
  return payload[key] ?? null;
}

/**
 * Zapier (zerver/webhooks/zapier): a Zap's `topic` (or the older `subject`) and `content`, as they are. Zulip's
 * Zapier app first checks its key with `{"type": "auth"}`, answered with the bot's name, email and id (its label
 * for the connection).
 */
export const zapier: Integration = {
  name: 'zapier',
  webhookName: 'Zapier',
  notifyOnInvalidJson: false,
  handle(request) {
    const payload = request.json();
    if (strOrNone(getOrNone(payload, 'type')) === 'auth') {
      return new WebhookResponse(200, (bot) => ({ full_name: bot.fullName, email: bot.email, id: bot.userId }));
    }
    const topic = strOrNone(getOrNone(payload, 'topic')) ?? strOrNone(getOrNone(payload, 'subject'));
    const content = strOrNone(getOrNone(payload, 'content'));
    if (topic === null) throw invalid("Topic can't be empty");
    if (content === null) throw invalid("Content can't be empty");
    return { topic, content };
  },
};
