import { unsupportedEvent, type Integration } from '../framework.js';
import { requiredParam } from '../toolkit/params.js';

/**
 * Transifex (zerver/webhooks/transifex): a resource fully translated or reviewed in a language, in the topic
 * "<project> in <language>". Transifex sends its facts as URL parameters, not a body.
 */

export const transifex: Integration = {
  name: 'transifex',
  webhookName: 'Transifex',
  notifyOnInvalidJson: false,
  eventTypes: ['translated', 'review'],
  handle(request) {
    const project = requiredParam(request, 'project');
    const resource = requiredParam(request, 'resource');
    const language = requiredParam(request, 'language');
    const event = requiredParam(request, 'event');
    const topic = `${project} in ${language}`;
    if (event === 'translation_completed') {
      return { topic, content: `Resource ${resource} fully translated.`, event: 'translated' };
    }
    if (event === 'review_completed')
      return { topic, content: `Resource ${resource} fully reviewed.`, event: 'review' };
    return unsupportedEvent(event);
  },
};
