import type { Integration } from '../framework.js';
import { str } from '../toolkit/wild.js';

/**
 * Opsgenie (zerver/webhooks/opsgenie): every alert action, in the topic of the Opsgenie integration that sent it,
 * with the action's details (note, recipient, tags, team, owner, escalation) as a bullet list.
 */

const EVENT_TYPES = [
  'AddTeam',
  'UnAcknowledge',
  'AddNote',
  'TestAction',
  'Close',
  'Escalate',
  'AddRecipient',
  'RemoveTags',
  'Acknowledge',
  'Delete',
  'AddTags',
  'TakeOwnership',
  'Create',
  'AssignOwnership',
];

export const opsgenie: Integration = {
  name: 'opsgenie',
  webhookName: 'Opsgenie',
  eventTypes: EVENT_TYPES,
  handle(request) {
    const payload = request.json();
    const alert = payload.alert;
    const alertType = str(payload.action);
    const alertId = str(alert.alertId);
    const integrationName = str(payload.integrationName);
    const tags = ((alert.tags ?? []) as unknown[]).map((tag) => `\`${str(tag)}\``).join(', ');
    let details = '';
    const bullet = (key: string, value: unknown) => {
      details += `* **${key}**: ${str(value)}\n`;
    };
    if ('note' in alert) bullet('Note', alert.note);
    if ('recipient' in alert) bullet('Recipient', alert.recipient);
    if ('addedTags' in alert) bullet('Tags added', alert.addedTags);
    if ('team' in alert) bullet('Team added', alert.team);
    if ('owner' in alert) bullet('Assigned owner', alert.owner);
    if ('escalationName' in payload) bullet('Escalation', payload.escalationName);
    if ('removedTags' in alert) bullet('Tags removed', alert.removedTags);
    if ('message' in alert) bullet('Message', alert.message);
    if (tags) bullet('Tags', tags);
    const content =
      `[Opsgenie alert for ${integrationName}](https://app.opsgenie.com/alert/V2#/show/${alertId}):\n` +
      `* **Type**: ${alertType}\n${details}`;
    return { topic: integrationName, content, event: alertType };
  },
};
