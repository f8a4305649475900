import { invalid } from '@confab/errors';
import { notifyOwner, type Integration, type Json, type OwnerNoticeText } from '../framework.js';

/**
 * Zabbix (zerver/webhooks/zabbix): a trigger's alert, in the topic of the host's name. The payload is written by
 * the media type's script the user installs: one without the fields answers Zulip's "Invalid payload", and the
 * bot's owner is told to check the script.
 */

const MISCONFIGURED: OwnerNoticeText = ({ botName, supportEmail }) =>
  `Hi there! Your bot ${botName} just received a Zabbix payload that is missing\n` +
  'some data that Zulip requires. This usually indicates a configuration issue\n' +
  'in your Zabbix webhook settings. Please make sure that you set the\n' +
  'script correctly and provide all the required parameters\n' +
  `when configuring the Zabbix webhook. Contact ${supportEmail} if you\n` +
  'need further help!';

function field(payload: Json, name: string): string {
  const value = payload[name];
  if (typeof value !== 'string') return notifyOwner(MISCONFIGURED, invalid('Invalid payload'));
  return value;
}

export const zabbix: Integration = {
  name: 'zabbix',
  webhookName: 'Zabbix',
  handle(request) {
    const payload = request.json();
    const hostname = field(payload, 'hostname');
    const content =
      `${field(payload, 'status')} (${field(payload, 'severity')}) alert on [${hostname}](${field(payload, 'link')}):\n` +
      `* ${field(payload, 'trigger')}\n* ${field(payload, 'item')}`;
    return { topic: hostname, content };
  },
};
