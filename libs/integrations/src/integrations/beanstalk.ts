import { invalid } from '@confab/errors';
import type { Integration, Json } from '../framework.js';
import { isBranchNameNotifiable, pushCommitsMessage, topicWithBranch } from '../toolkit/git.js';
import { requiredParam } from '../toolkit/params.js';
import { int, list, str } from '../toolkit/wild.js';

/**
 * Beanstalk (zerver/webhooks/beanstalk), authenticated over HTTP Basic (its form will not take an "@" in the user
 * name, so the email's "%40" is decoded by the gateway): the form's `payload` is a Git push (it has a `uri`) or a
 * Subversion revision.
 */

/** WildValue's `value[key]`: a field the view insists on. */
function at(value: Json, key: string): Json {
  if (typeof value !== 'object' || value === null || !(key in value)) throw new TypeError(`missing ${key}`);
  return value[key];
}

export const beanstalk: Integration = {
  name: 'beanstalk',
  webhookName: 'Beanstalk',
  handle(request) {
    // Zulip's `payload: Json[WildValue]` parameter.
    const raw = requiredParam(request, 'payload');
    let payload: Json;
    try {
      payload = JSON.parse(raw);
    } catch {
      throw invalid('payload is not valid JSON');
    }
    if (typeof payload === 'object' && payload !== null && 'uri' in payload) {
      const branch = str(at(payload, 'branch'));
      if (!isBranchNameNotifiable(branch, request.params.get('branches'))) return null;
      const repository = at(payload, 'repository');
      const shortRef = str(at(payload, 'ref')).replace(/^refs\/heads\//, '');
      const commits = (list(at(payload, 'commits')) as Json[]).map((commit) => ({
        name: str(at(at(commit, 'author'), 'name')),
        sha: str(at(commit, 'id')),
        url: str(at(commit, 'url')),
        message: str(at(commit, 'message')),
      }));
      // before and after are required of a Git push, though the text does not show them.
      str(at(payload, 'before'));
      str(at(payload, 'after'));
      return {
        topic: topicWithBranch(str(at(repository, 'name')), shortRef),
        content: pushCommitsMessage(str(at(payload, 'pusher_name')), str(at(repository, 'url')), shortRef, commits),
      };
    }
    const author = str(at(payload, 'author_full_name'));
    const url = str(at(payload, 'changeset_url'));
    const revision = int(at(payload, 'revision'));
    const summary = str(at(payload, 'message')).split('\n', 1)[0];
    return { topic: `svn r${revision}`, content: `${author} pushed [revision ${revision}](${url}):\n\n> ${summary}` };
  },
};
