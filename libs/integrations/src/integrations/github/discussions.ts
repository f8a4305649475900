import type { Json } from '../../framework.js';
import { pullRequestMessage, quoted } from '../../toolkit/git.js';
import { int, str } from '../../toolkit/wild.js';
import { commentAction, getDict, has, repositoryName, senderName, type Helper } from './helpers.js';

/** The bodies of GitHub's discussion events and discussion comments. */

/** "[discussion #n]({url})", with the title when the URL fixed the topic. */
function discussionLink(discussion: Json, includeTitle: boolean): string {
  const title = includeTitle ? ` ${str(discussion.title)}` : '';
  return `[discussion #${int(discussion.number)}${title}](${str(discussion.html_url)})`;
}

export function discussionBody({ payload, includeTitle }: Helper): string {
  const discussion = payload.discussion;
  const user = senderName(payload);
  const action = str(payload.action);
  const link = discussionLink(discussion, includeTitle);
  switch (action) {
    case 'created':
      return (
        `${user} created [discussion #${int(discussion.number)}](${str(discussion.html_url)}) in ` +
        `${str(discussion.category.name)}:\n\n~~~ quote\n### ${str(discussion.title)}\n${str(discussion.body)}\n~~~`
      );
    case 'answered':
      return (
        `${user} marked [comment #${int(payload.answer.id)}](${str(payload.answer.html_url)}) as the answer:\n` +
        `${quoted(str(payload.answer.body))}`
      );
    case 'unanswered':
      return `${user} marked [comment #${int(payload.old_answer.id)}](${str(payload.old_answer.html_url)}) as not the answer.`;
    case 'category_changed':
      return (
        `${user} changed the category of ${link} from ${str(payload.changes.category.from.name)} to ` +
        `${str(discussion.category.name)}.`
      );
    case 'closed':
      return `${user} closed ${link} as ${str(discussion.state_reason)}.`;
    case 'locked':
      return `${user} locked ${link} as ${str(discussion.active_lock_reason)}.`;
    case 'deleted':
      return `${user} deleted discussion #${int(discussion.number)}${includeTitle ? ` ${str(discussion.title)}` : ''}.`;
    case 'edited': {
      const changes = getDict(payload, 'changes');
      if (has(changes, 'title')) {
        return `${user} edited the title of ${link}:\n${quoted(`### ${str(discussion.title)}`)}`;
      }
      if (has(changes, 'body')) return `${user} edited ${link}:\n${quoted(str(discussion.body))}`;
      return `${user} edited ${link}.`;
    }
    case 'labeled':
      return `${user} added the ${str(payload.label.name)} label to ${link}.`;
    case 'unlabeled':
      return `${user} removed the ${str(payload.label.name)} label from ${link}.`;
    case 'transferred':
      return (
        `${user} transferred discussion #${int(discussion.number)} from ${repositoryName(payload)} to ` +
        `${str(payload.changes.new_repository.name)} as [discussion #${int(payload.changes.new_discussion.number)}]` +
        `(${str(discussion.html_url)}).`
      );
    default:
      // pinned, unpinned, unlocked, reopened and whatever GitHub adds: the action itself.
      return `${user} ${action} ${link}.`;
  }
}

export function discussionComment({ payload, includeTitle }: Helper): string {
  return pullRequestMessage({
    userName: senderName(payload),
    action: commentAction(payload),
    url: str(payload.discussion.html_url),
    number: int(payload.discussion.number),
    message: str(payload.comment.body),
    title: includeTitle ? str(payload.discussion.title) : null,
    type: 'discussion',
  });
}
