import { anomalousPayload, type Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';

/**
 * Statuspage (zerver/webhooks/statuspage): incidents and their updates, and components' status changes, in the topic
 * "<name>: <page status>".
 */

export const statuspage: Integration = {
  name: 'statuspage',
  webhookName: 'Statuspage',
  eventTypes: ['incident', 'component'],
  handle(request) {
    const payload = request.json();
    if (typeof payload !== 'object' || payload === null) return anomalousPayload();
    if ('incident' in payload) {
      const incident = payload.incident;
      const name = str(incident.name);
      return {
        topic: `${name}: ${str(payload.page.status_description)}`,
        content:
          `**${name}**:\n* State: **${str(incident.status)}**\n` +
          `* Description: ${str(incident.incident_updates[0].body)}`,
        event: 'incident',
      };
    }
    if ('component' in payload) {
      const name = str(payload.component.name);
      return {
        topic: `${name}: ${str(payload.page.status_description)}`,
        content:
          `**${name}** has changed status from **${str(payload.component_update.old_status)}** to ` +
          `**${str(payload.component_update.new_status)}**.`,
        event: 'component',
      };
    }
    return anomalousPayload();
  },
};
