import { unsupportedEvent, type Integration, type Json } from '../framework.js';
import { isBranchNameNotifiable, pushCommitsMessage, topicWithBranch } from '../toolkit/git.js';
import { list, str } from '../toolkit/wild.js';

/** RhodeCode (zerver/webhooks/rhodecode): pushes to a repository's branches ("repo-push"). */

/** WildValue's `value[key]`: a field the view insists on. */
function at(value: Json, key: string | number): Json {
  if (typeof value !== 'object' || value === null || !(key in value)) throw new TypeError(`missing ${key}`);
  return value[key];
}

const push = (payload: Json): Json => at(at(payload, 'event'), 'push');

/** The pushed branch; a push deleting a branch names none, and its one commit's id is "delete_branch=>name". */
function pushBranch(payload: Json): string {
  const branches = list(at(push(payload), 'branches'));
  if (branches.length > 0) return str(at(branches[0], 'name'));
  const id = str(at(at(at(push(payload), 'commits'), 0), 'raw_id'));
  const name = id.split('=>')[1];
  if (name === undefined) throw new TypeError('unexpected commit id');
  return name;
}

export const rhodecode: Integration = {
  name: 'rhodecode',
  webhookName: 'RhodeCode',
  eventTypes: ['repo-push'],
  handle(request) {
    const payload = request.json();
    const event = str(at(at(payload, 'event'), 'name'));
    if (event === 'repo-push' && !isBranchNameNotifiable(pushBranch(payload), request.params.get('branches')))
      return null;
    if (event !== 'repo-push') unsupportedEvent(event);
    const commits = (list(at(push(payload), 'commits')) as Json[]).map((commit) => ({
      name: str(at(commit, 'author')),
      sha: str(at(commit, 'raw_id')),
      url: str(at(commit, 'url')),
      message: str(at(commit, 'message')),
    }));
    const user = str(at(at(at(payload, 'event'), 'actor'), 'username'));
    return {
      topic: topicWithBranch(str(at(at(at(payload, 'event'), 'repo'), 'repo_name')), pushBranch(payload)),
      content: pushCommitsMessage(user, null, pushBranch(payload), commits),
    };
  },
};
