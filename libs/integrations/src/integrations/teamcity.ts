import { notifyOwner, type Integration, type Json, type OwnerNoticeText } from '../framework.js';
import { str } from '../toolkit/wild.js';

/**
 * TeamCity (zerver/webhooks/teamcity, the tcWebHooks plugin's "Legacy Webhook (JSON)" format): a build's result, in
 * the topic of the build's full name (and its branch). Zulip sends a personal build to the user who started it by
 * direct message; here it posts nothing (docs/integrations.md, "Known differences"), as Zulip does when it cannot
 * tell who that is. A payload of another format posts nothing, and the bot's owner is told which format to pick.
 */

const OTHER_FORMAT: OwnerNoticeText = ({ botName, supportEmail }) =>
  `Hi there! Your bot ${botName} just received a TeamCity payload in a\n` +
  "format that Zulip doesn't recognize. This usually indicates a\n" +
  'configuration issue in your TeamCity webhook settings. Please make sure\n' +
  'that you set the **Payload Format** option to **Legacy Webhook (JSON)**\n' +
  `in your TeamCity webhook configuration. Contact ${supportEmail} if you\n` +
  'need further help!';

function property(properties: Json, name: string): string | null {
  for (const item of properties as Json[]) if (str(item.name) === name) return str(item.value);
  return null;
}

function statusText(result: string, delta: string, status: string): string {
  if (result === 'success') return delta === 'fixed' ? 'has been fixed! :thumbs_up:' : 'was successful! :thumbs_up:';
  if (result === 'failure') {
    return delta === 'broken'
      ? `is broken with status ${status}! :thumbs_down:`
      : `is still broken with status ${status}! :thumbs_down:`;
  }
  if (result === 'running') return 'has started.';
  // Zulip's view has no text for another result (an UnboundLocalError there): not TeamCity's payload.
  throw new TypeError(`a build result of ${result}`);
}

export const teamcity: Integration = {
  name: 'teamcity',
  webhookName: 'TeamCity',
  handle(request) {
    const payload = request.json();
    if (typeof payload !== 'object' || payload === null || !('build' in payload)) return notifyOwner(OTHER_FORMAT);
    const build = payload.build;
    const name = str(build.buildFullName);
    const url = str(build.buildStatusUrl);
    const number = str(build.buildNumber);
    const status = statusText(str(build.buildResult), str(build.buildResultDelta), str(build.buildStatus));
    const content = `${name} build ${number} ${status} See [changes](${url}&tab=buildChangesDiv) and [build log](${url}).`;
    const topic = 'branchDisplayName' in build ? `${name} (${str(build.branchDisplayName)})` : name;
    if (property(build.teamcityProperties, 'env.BUILD_IS_PERSONAL') === 'true') return null;
    return { topic, content };
  },
};
