import { endsWithPunctuation, pyStr } from './python.js';

/**
 * Zulip's shared templates for version-control integrations (zerver/lib/webhooks/git.py): pushes with their commit
 * lists (at most 20, then "[and N more commit(s)]"), branches and tags, pull/merge requests, issues, comments and
 * releases. GitHub, GitLab, Bitbucket, Gitea, Gogs, Beanstalk, Azure DevOps, RhodeCode and others word their
 * messages through these, so the same event reads the same whatever the host.
 */

export const TOPIC_WITH_BRANCH_TEMPLATE = '{repo} / {branch}';
export const EMPTY_SHA = '0000000000000000000000000000000000000000';
export const COMMITS_LIMIT = 20;
const PUSH_COMMITTERS_LIMIT_INFO = 3;

/** "{repo} / {branch}". */
export function topicWithBranch(repo: string, branch: string): string {
  return `${repo} / ${branch}`;
}

/** "{repo} / {type} #{id} {title}" (TOPIC_WITH_PR_OR_ISSUE_INFO_TEMPLATE). */
export function topicWithPrOrIssue(repo: string, type: string, id: unknown, title: unknown): string {
  return `${repo} / ${type} #${pyStr(id)} ${pyStr(title)}`;
}

/** "{repo} / {tag} {title}" (TOPIC_WITH_RELEASE_TEMPLATE). */
export function topicWithRelease(repo: string, tag: string, title: unknown): string {
  return `${repo} / ${tag} ${pyStr(title)}`;
}

/** CONTENT_MESSAGE_TEMPLATE: a quoted block on a line of its own. */
export function quoted(message: unknown): string {
  return `\n~~~ quote\n${pyStr(message)}\n~~~`;
}

/** One commit of a push, as the templates list it. */
export interface CommitData {
  name: string;
  sha: string;
  message: string;
  /** Absent or null prints "None", as Zulip's commit.get("url") does. */
  url?: string | null;
}

export function shortSha(sha: string): string {
  return sha.slice(0, 11);
}

/** The push's committers by number of commits, then name; beyond three, "others" with the rest. */
export function allCommitters(commits: readonly CommitData[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const commit of commits) counts.set(commit.name, (counts.get(commit.name) ?? 0) + 1);
  let items = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  if (items.length > PUSH_COMMITTERS_LIMIT_INFO) {
    const others = items.slice(PUSH_COMMITTERS_LIMIT_INFO).reduce((sum, [, n]) => sum + n, 0);
    items = [...items.slice(0, PUSH_COMMITTERS_LIMIT_INFO), ['others', others]];
  }
  return items;
}

/** The commit list of a push: one line per commit up to 20, then how many more (or "[and more commit(s)]"). */
export function commitsContent(commits: readonly CommitData[], isTruncated = false): string {
  let content = '';
  for (const commit of commits.slice(0, COMMITS_LIMIT)) {
    const firstLine = commit.message.split('\n', 1)[0];
    content += `* ${firstLine} ([${shortSha(commit.sha)}](${pyStr(commit.url)}))\n`;
  }
  if (commits.length > COMMITS_LIMIT) content += `[and ${commits.length - COMMITS_LIMIT} more commit(s)]`;
  else if (isTruncated) content += '[and more commit(s)]';
  return content.trimEnd();
}

/** get_push_commits_event_message: a push of commits, a branch pushed without commits, or a deleted branch. */
export function pushCommitsMessage(
  userName: string,
  compareUrl: string | null | undefined,
  branchName: string,
  commits: readonly CommitData[],
  options: { isTruncated?: boolean; deleted?: boolean; forcePush?: boolean } = {},
): string {
  if (commits.length === 0 && options.deleted) {
    return `${userName} [deleted](${pyStr(compareUrl)}) the branch ${branchName}.`;
  }
  const pushType = options.forcePush ? 'force pushed' : 'pushed';
  if (commits.length === 0) {
    return compareUrl
      ? `${userName} [${pushType}](${compareUrl}) the branch ${branchName}.`
      : `${userName} ${pushType} the branch ${branchName}.`;
  }
  const count = commits.length;
  const commitOrCommits = `commit${count > 1 ? 's' : ''}`;
  const pushedText = compareUrl
    ? `[${pushType}](${compareUrl}) ${count} ${commitOrCommits}`
    : `${pushType} ${count} ${commitOrCommits}`;
  const base = `${userName} ${pushedText} to branch ${branchName}.`;
  const list = commitsContent(commits, options.isTruncated);
  const committers = allCommitters(commits);
  if (committers.length === 1 && userName === committers[0]![0]) return `${base}\n\n${list}`.trimEnd();
  let details = `${committers[0]![0]} (${committers[0]![1]})`;
  for (const [name, n] of committers.slice(1, -1)) details = `${details}, ${name} (${n})`;
  if (committers.length > 1) {
    const [name, n] = committers[committers.length - 1]!;
    details = `${details} and ${name} (${n})`;
  }
  return `${base} Commits by ${details}.\n\n${list}`.trimEnd();
}

/** get_force_push_commits_event_message. */
export function forcePushMessage(userName: string, url: string, branchName: string, head: string): string {
  return `${userName} [force pushed](${url}) to branch ${branchName}. Head is now ${head}.`;
}

/** get_create_branch_event_message. */
export function createBranchMessage(userName: string, url: string | null | undefined, branchName: string): string {
  return url === null || url === undefined
    ? `${userName} created ${branchName} branch.`
    : `${userName} created [${branchName}](${url}) branch.`;
}

/** get_remove_branch_event_message. */
export function removeBranchMessage(userName: string, branchName: string): string {
  return `${userName} deleted branch ${branchName}.`;
}

/** "a, b and c" of assignees' usernames (get_assignee_string). */
export function assigneeString(assignees: readonly { username: string }[]): string {
  if (assignees.length === 1) return assignees[0]!.username;
  const names = assignees.map((a) => a.username);
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

export interface PullRequestFacts {
  userName: string;
  action: string;
  url: string;
  number?: number | string | null;
  targetBranch?: string | null;
  baseBranch?: string | null;
  message?: string | null;
  assignee?: string | null;
  assignees?: readonly { username: string }[] | null;
  reviewer?: string | null;
  /**
   * Who was assigned or unassigned (assignee_updated): with the action "assigned" the text reads "{user} assigned
   * {who} to [PR …]", with "unassigned" "{user} unassigned {who} from [PR …]" (None when not given, as in Zulip).
   */
  assigneeUpdated?: string | null;
  /** "PR" unless told ("MR", "issue", "discussion", …). */
  type?: string;
  title?: string | null;
}

/** GitLab's approval actions, worded as Zulip's get_pull_request_event_message words them. */
const PULL_REQUEST_ACTION_TEXTS: Record<string, string> = {
  approval: 'added their approval for',
  unapproval: 'removed their approval for',
};

/** get_pull_request_event_message: "{user} {action} [{type} #{id} {title}]({url}) from `a` to `b` (assigned to …):". */
export function pullRequestMessage(facts: PullRequestFacts): string {
  const type = facts.type ?? 'PR';
  const id = facts.number !== undefined && facts.number !== null ? ` #${pyStr(facts.number)}` : '';
  const title = facts.title ?? null;
  const action = PULL_REQUEST_ACTION_TEXTS[facts.action] ?? facts.action;
  const assigneeUpdated =
    facts.action === 'assigned'
      ? ` ${pyStr(facts.assigneeUpdated)} to`
      : facts.action === 'unassigned'
        ? ` ${pyStr(facts.assigneeUpdated)} from`
        : '';
  let main = `${facts.userName} ${action}${assigneeUpdated} [${type}${id}${title !== null ? ` ${title}` : ''}](${facts.url})`;
  if (facts.targetBranch && facts.baseBranch)
    main = `${main} from \`${facts.targetBranch}\` to \`${facts.baseBranch}\``;
  const assignees = facts.assignees && facts.assignees.length > 0 ? facts.assignees : null;
  let assigneeInfo: string | null = null;
  if (assignees) assigneeInfo = `(assigned to ${assigneeString(assignees)})`;
  else if (facts.assignee) assigneeInfo = `(assigned to ${facts.assignee})`;
  else if (facts.reviewer) assigneeInfo = `(assigned reviewers: ${facts.reviewer})`;
  if (assigneeInfo !== null) main = `${main} ${assigneeInfo}`;
  const punctuation = facts.message ? ':' : '.';
  if (
    assignees ||
    facts.assignee ||
    (facts.targetBranch && facts.baseBranch) ||
    title === null ||
    !endsWithPunctuation(title)
  ) {
    main = `${main}${punctuation}`;
  }
  if (facts.message) main += `\n${quoted(facts.message)}`;
  return main.trimEnd();
}

/** get_issue_event_message: a pull request message of type "issue". */
export function issueMessage(
  facts: Omit<PullRequestFacts, 'type' | 'targetBranch' | 'baseBranch' | 'reviewer'>,
): string {
  return pullRequestMessage({ ...facts, type: 'issue' });
}

/** get_issue_labeled_or_unlabeled_event_message. */
export function issueLabeledMessage(facts: {
  userName: string;
  action: string;
  url: string;
  number: unknown;
  labelName: string;
  userUrl: string;
  title?: string | null;
}): string {
  const preposition = facts.action === 'added' ? 'to' : 'from';
  const issue =
    facts.title !== undefined && facts.title !== null
      ? `Issue #${pyStr(facts.number)} ${facts.title}`
      : `Issue #${pyStr(facts.number)}`;
  return `[${facts.userName}](${facts.userUrl}) ${facts.action} the ${facts.labelName} label ${preposition} [${issue}](${facts.url}).`;
}

/** get_issue_milestoned_or_demilestoned_event_message. */
export function issueMilestonedMessage(facts: {
  userName: string;
  action: string;
  url: string;
  number: unknown;
  milestoneName: string;
  milestoneUrl: string;
  userUrl: string;
  title?: string | null;
}): string {
  const preposition = facts.action === 'added' ? 'to' : 'from';
  const issue =
    facts.title !== undefined && facts.title !== null
      ? `issue #${pyStr(facts.number)} ${facts.title}`
      : `issue #${pyStr(facts.number)}`;
  return (
    `[${facts.userName}](${facts.userUrl}) ${facts.action} milestone [${facts.milestoneName}](${facts.milestoneUrl}) ` +
    `${preposition} [${issue}](${facts.url}).`
  );
}

/** get_push_tag_event_message: "{user} {action} tag [name](url)", with a period unless the tag ends in punctuation. */
export function pushTagMessage(userName: string, tagName: string, tagUrl?: string | null, action = 'pushed'): string {
  const tag = tagUrl ? `[${tagName}](${tagUrl})` : tagName;
  const message = `${userName} ${action} tag ${tag}`;
  return endsWithPunctuation(tagName) ? message : `${message}.`;
}

/** get_commits_comment_action_message: "{user} {action} on [sha](url):" and the comment quoted. */
export function commitCommentMessage(
  userName: string,
  action: string,
  commitUrl: string,
  sha: string,
  message?: string | null,
): string {
  let content = `${userName} ${action} on [${shortSha(sha)}](${commitUrl})${message ? ':' : '.'}`;
  if (message) content += quoted(message);
  return content;
}

/** get_release_event_message. */
export function releaseMessage(
  userName: string,
  action: string,
  tagName: string,
  releaseName: string,
  url: string,
): string {
  return `${userName} ${action} release [${releaseName}](${url}) for tag ${tagName}.`;
}

/**
 * is_branch_name_notifiable: whether a push to `branch` is posted under the URL's `branches` (a comma-separated
 * list of names; absent, every branch is).
 */
export function isBranchNameNotifiable(branch: string, branches: string | null | undefined): boolean {
  if (branches === null || branches === undefined) return true;
  return branches.split(',').some((name) => name.trim() === branch);
}

/** RELEASE_MESSAGE_TEMPLATE_WITHOUT_USER_NAME (with a URL) or its _WITHOUT_URL form (none). */
export function releaseMessageWithoutUser(
  action: string,
  tagName: string,
  releaseName: string,
  url?: string | null,
): string {
  return url === null || url === undefined
    ? `Release ${releaseName} for tag ${tagName} was ${action}.`
    : `Release [${releaseName}](${url}) for tag ${tagName} was ${action}.`;
}
