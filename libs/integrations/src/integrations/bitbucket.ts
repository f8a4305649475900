import type { Integration, Json } from '../framework.js';
import { isBranchNameNotifiable, pushCommitsMessage, topicWithBranch } from '../toolkit/git.js';
import { list, str } from '../toolkit/wild.js';

/**
 * Bitbucket's legacy POST hook (zerver/webhooks/bitbucket), authenticated over HTTP Basic: a push with its commits,
 * or, without commits (all Bitbucket tells of a force push), a force push. A push by no named user is "Someone"'s.
 */

/** WildValue's `value[key]`: a field the view insists on. */
function at(value: Json, key: string): Json {
  if (typeof value !== 'object' || value === null || !(key in value)) throw new TypeError(`missing ${key}`);
  return value[key];
}

const pusher = (payload: Json): string => ('user' in payload ? str(payload.user) : 'Someone');

export const bitbucket: Integration = {
  name: 'bitbucket',
  webhookName: 'Bitbucket',
  // Zulip's authenticated_rest_api_view tells the owner nothing of a body that is not JSON.
  notifyOnInvalidJson: false,
  // Bitbucket escapes the URL's parameters once more than it should.
  unquoteUrlParameters: true,
  handle(request) {
    const payload = request.json();
    const repository = at(payload, 'repository');
    const commitList = list(at(payload, 'commits')) as Json[];
    const commits = commitList.map((commit) => ({
      name: 'author' in commit ? str(commit.author) : pusher(payload),
      sha: str(at(commit, 'raw_node')),
      message: str(at(commit, 'message')),
      url: `${str(at(payload, 'canon_url'))}${str(at(repository, 'absolute_url'))}commits/${str(at(commit, 'raw_node'))}`,
    }));
    if (commits.length === 0) {
      const url = str(at(payload, 'canon_url')) + str(at(repository, 'absolute_url'));
      return { topic: str(at(repository, 'name')), content: `${pusher(payload)} [force pushed](${url}).` };
    }
    const branch = str(at(commitList[commitList.length - 1], 'branch'));
    if (!isBranchNameNotifiable(branch, request.params.get('branches'))) return null;
    return {
      topic: topicWithBranch(str(at(repository, 'name')), branch),
      content: pushCommitsMessage(pusher(payload), null, branch, commits),
    };
  },
};
