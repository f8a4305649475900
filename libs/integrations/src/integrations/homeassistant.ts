import type { Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';

/** Home Assistant's REST notify (zerver/webhooks/homeassistant): a `message`, in its `topic` or "homeassistant". */
export const homeassistant: Integration = {
  name: 'homeassistant',
  webhookName: 'HomeAssistant',
  handle(request) {
    const payload = request.json();
    const content = str(payload.message);
    const topic = 'topic' in payload ? str(payload.topic) : 'homeassistant';
    return { topic, content };
  },
};
