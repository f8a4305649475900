import type { Integration } from '../framework.js';

/**
 * OpenSearch (zerver/webhooks/opensearch): the alerting plugin's message as it is (OpenSearch sends plain text,
 * whatever its Content-Type says), in the topic "OpenSearch alerts" unless the first line names one ("topic: …").
 */

export const opensearch: Integration = {
  name: 'opensearch',
  webhookName: 'OpenSearch',
  handle(request) {
    const payload = request.body;
    const endOfLine = payload.indexOf('\n');
    if (payload.startsWith('topic:') && endOfLine !== -1) {
      return { topic: payload.slice(6, endOfLine).trim(), content: payload.slice(endOfLine + 1) };
    }
    return { topic: 'OpenSearch alerts', content: payload };
  },
};
