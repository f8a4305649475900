import type { Json } from '../../framework.js';
import { commitCommentMessage, issueMessage, pullRequestMessage, quoted } from '../../toolkit/git.js';
import { pyTruthy } from '../../toolkit/pyformat.js';
import { int, str, strOrNone } from '../../toolkit/wild.js';
import { assignees, at, attributes, has, issueUserName, titleIf, type Body } from './fields.js';

/** GitLab's issues, merge requests, comments (notes) and wiki pages, as Zulip's view words them. */

export const issueCreatedBody: Body = (payload, context) => {
  const object = attributes(payload);
  const description = has(object, 'description') ? object.description : null;
  let message: string | null = null;
  // GitLab's hidden comments (<!-- … -->, across lines) are left out of the quoted description.
  if (pyTruthy(description))
    message = str(description)
      .replace(/<!--[\s\S]*?-->/g, '')
      .trimEnd();
  return issueMessage({
    userName: issueUserName(payload),
    action: 'created',
    url: str(at(object, 'url')),
    number: int(at(object, 'iid')),
    message,
    assignees: assignees(payload),
    title: titleIf(object, context),
  });
};

export const issueBody =
  (action: string): Body =>
  (payload, context) => {
    const object = attributes(payload);
    return issueMessage({
      userName: issueUserName(payload),
      action,
      url: str(at(object, 'url')),
      number: int(at(object, 'iid')),
      title: titleIf(object, context),
    });
  };

/** The words get_pull_request_event_message puts for GitLab's approval actions. */
const ACTION_TEXTS: Record<string, string> = {
  approval: 'added their approval for',
  unapproval: 'removed their approval for',
};

export const mergeRequestBody =
  (action: string): Body =>
  (payload, context) => {
    const object = attributes(payload);
    const merged = action === 'merged';
    return pullRequestMessage({
      userName: issueUserName(payload),
      action: ACTION_TEXTS[action] ?? action,
      url: str(at(object, 'url')),
      number: int(at(object, 'iid')),
      targetBranch: merged ? str(at(object, 'source_branch')) : null,
      baseBranch: merged ? str(at(object, 'target_branch')) : null,
      type: 'MR',
      title: titleIf(object, context),
    });
  };

export const mergeRequestOpenOrUpdatedBody =
  (action: string): Body =>
  (payload, context) => {
    const object = attributes(payload);
    const created = action === 'created';
    return pullRequestMessage({
      userName: issueUserName(payload),
      action,
      url: str(at(object, 'url')),
      number: int(at(object, 'iid')),
      targetBranch: created ? str(at(object, 'source_branch')) : null,
      baseBranch: created ? str(at(object, 'target_branch')) : null,
      message: strOrNone(at(object, 'description')),
      assignees: assignees(payload),
      type: 'MR',
      title: titleIf(object, context),
    });
  };

export const mergeRequestUpdatedBody: Body = (payload, context) =>
  pyTruthy(attributes(payload).oldrev)
    ? mergeRequestBody('added commit(s) to')(payload, context)
    : mergeRequestOpenOrUpdatedBody('updated')(payload, context);

export const commitNoteBody: Body = (payload) => {
  const comment = attributes(payload);
  const commit = at(payload, 'commit');
  return commitCommentMessage(
    issueUserName(payload),
    `[commented](${str(at(comment, 'url'))})`,
    str(at(commit, 'url')),
    str(at(commit, 'id')),
    str(at(comment, 'note')),
  );
};

/** A comment on a merge request, an issue or a snippet: "[commented](…) on [MR #n](…):" and the note quoted. */
function noteBody(key: 'merge_request' | 'issue' | 'snippet', type: string, url: (payload: Json) => string): Body {
  return (payload, context) => {
    const comment = attributes(payload);
    const target = at(payload, key);
    return pullRequestMessage({
      userName: issueUserName(payload),
      action: `[commented](${str(at(comment, 'url'))}) on`,
      url: url(payload),
      number: int(at(target, key === 'snippet' ? 'id' : 'iid')),
      message: str(at(comment, 'note')),
      type,
      title: titleIf(target, context),
    });
  };
}

export const mergeRequestNoteBody = noteBody('merge_request', 'MR', (p) => str(at(at(p, 'merge_request'), 'url')));
export const issueNoteBody = noteBody('issue', 'issue', (p) => str(at(at(p, 'issue'), 'url')));
// A snippet's own URL is in payloads of GitLab 16.1 and later; before, it is made from the project's.
export const snippetNoteBody = noteBody('snippet', 'snippet', (p) => {
  const snippet = at(p, 'snippet');
  return has(snippet, 'url')
    ? str(snippet.url)
    : `${str(at(at(p, 'project'), 'web_url'))}/-/snippets/${int(at(snippet, 'id'))}`;
});

/** A comment on a design: its issue is only in the design's path ("designs/issue-1/Screenshot.png"). */
export const designNoteBody: Body = (payload) => {
  const comment = attributes(payload);
  const repositoryUrl = str(at(at(payload, 'repository'), 'homepage'));
  const noteId = int(at(comment, 'id'));
  const parts = str(at(at(comment, 'position'), 'new_path')).split('/');
  if (parts.length !== 3) throw new TypeError('unexpected design path');
  const [, issueSubpath, designName] = parts as [string, string, string];
  const issueNumber = issueSubpath.split('-').pop()!;
  const designUrl = `${repositoryUrl}/-/issues/${issueNumber}/designs/${designName}`;
  return (
    `${issueUserName(payload)} [commented](${designUrl}#note_${noteId}) on design [${designName}](${designUrl}):\n` +
    quoted(str(at(comment, 'note')))
  );
};

export const wikiPageBody =
  (action: string): Body =>
  (payload) => {
    const object = attributes(payload);
    return `${issueUserName(payload)} ${action} [wiki page "${str(at(object, 'title'))}"](${str(at(object, 'url'))}).`;
  };
