import { missingArgument } from '@confab/errors';
import { WebhookResponse, type Integration } from '../framework.js';

/**
 * Dropbox (zerver/webhooks/dropbox): a POST says files changed; any other request is Dropbox's check of the URL,
 * answered with its `challenge` as plain text.
 */
export const dropbox: Integration = {
  name: 'dropbox',
  webhookName: 'Dropbox',
  notifyOnInvalidJson: false,
  handle(request) {
    if (request.method === 'POST') return { topic: 'Dropbox', content: 'File has been updated on Dropbox!' };
    const challenge = request.params.get('challenge');
    if (challenge === undefined) throw missingArgument('challenge');
    return new WebhookResponse(200, challenge, 'text/plain; charset=UTF-8');
  },
};
