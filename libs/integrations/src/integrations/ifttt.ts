import { invalid } from '@confab/errors';
import type { Integration, Json } from '../framework.js';
import { strOrNone } from '../toolkit/wild.js';
import { getOrNone } from './zapier.js';

/** IFTTT (zerver/webhooks/ifttt): an applet's `topic` (or the older `subject`) and `content`, as they are. */
export const ifttt: Integration = {
  name: 'ifttt',
  webhookName: 'IFTTT',
  handle(request) {
    const payload: Json = request.json();
    // A field that is neither a string nor null (or a body that is no dict) is Zulip's "Malformed payload".
    const field = (key: string) => {
      try {
        return strOrNone(getOrNone(payload, key));
      } catch {
        throw invalid('Malformed payload');
      }
    };
    const topicField = field('topic');
    const content = field('content');
    const topic = topicField ?? field('subject');
    if (topic === null) throw invalid("Topic can't be empty");
    if (content === null) throw invalid("Content can't be empty");
    return { topic, content };
  },
};
