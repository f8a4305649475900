import { unsupportedEvent, type Integration, type Json } from '../framework.js';
import { eventHeader } from '../toolkit/headers.js';
import { int, list, str, strOrNone } from '../toolkit/wild.js';

/**
 * Review Board (zerver/webhooks/reviewboard): review requests published, reopened and closed, reviews and replies,
 * by the X-ReviewBoard-Event header, in the topic of the review request's repository.
 */

/** WildValue's `value[key]`: a field the view insists on. */
function at(value: Json, key: string | number): Json {
  if (typeof value !== 'object' || value === null || !(key in value)) throw new TypeError(`missing ${key}`);
  return value[key];
}

/** "**a**", or "**a**, **b**, and **c**". */
function targetPeople(payload: Json): string {
  const people = list(at(at(payload, 'review_request'), 'target_people')) as Json[];
  if (people.length === 1) return `**${str(at(people[0], 'title'))}**`;
  if (people.length === 0) throw new TypeError('no target people');
  let result = '';
  for (const person of people.slice(0, -1)) result += `**${str(at(person, 'title'))}**, `;
  return `${result}and **${str(at(people[people.length - 1], 'title'))}**`;
}

/** A review request's event: the headline and the quoted details (description, status, people, extra lines). */
function reviewRequestBody(payload: Json, verb: string, userName: string, extraInfo: string | null): string {
  const request = at(payload, 'review_request');
  const branch = strOrNone(request.branch);
  const branchInfo = branch ? `**Branch**: ${branch}` : null;
  let extra = extraInfo ?? '';
  if (branchInfo) extra = extraInfo === null ? branchInfo : `${extraInfo}\n${branchInfo}`;
  const message =
    `\n**${userName}** ${verb} [#${int(at(request, 'id'))}: ${str(at(request, 'summary'))}](${str(at(request, 'absolute_url'))}):\n` +
    `\n\`\`\` quote\n**Description**: ${str(at(request, 'description'))}\n**Status**: ${str(at(request, 'status'))}\n` +
    `**Target people**: ${targetPeople(payload)}\n${extra}\n\`\`\`\n`;
  return message.trim();
}

const BODIES: Record<string, (payload: Json) => string> = {
  review_request_published: (payload) =>
    reviewRequestBody(
      payload,
      'opened',
      str(at(at(at(at(payload, 'review_request'), 'links'), 'submitter'), 'title')),
      null,
    ),
  review_request_reopened: (payload) =>
    reviewRequestBody(payload, 'reopened', str(at(at(payload, 'reopened_by'), 'username')), null),
  review_request_closed: (payload) =>
    reviewRequestBody(
      payload,
      'closed',
      str(at(at(payload, 'closed_by'), 'username')),
      `**Close type**: ${str(at(payload, 'close_type'))}`,
    ),
  review_published: (payload) => {
    const review = at(payload, 'review');
    const request = at(payload, 'review_request');
    return (
      `**${str(at(at(at(review, 'links'), 'user'), 'title'))}** [reviewed](${str(at(review, 'absolute_url'))}) ` +
      `[#${int(at(request, 'id'))}: ${str(at(request, 'summary'))}](${str(at(request, 'absolute_url'))}):\n\n` +
      `**Review**:\n\`\`\` quote\n${str(at(review, 'body_top'))}\n\`\`\``
    ).trim();
  },
  reply_published: (payload) => {
    const reply = at(payload, 'reply');
    const request = at(payload, 'review_request');
    const links = at(reply, 'links');
    str(at(at(links, 'user'), 'href'));
    return (
      `**${str(at(at(links, 'user'), 'title'))}** [replied](${str(at(at(links, 'self'), 'href'))}) to ` +
      `[#${int(at(request, 'id'))}: ${str(at(request, 'summary'))}](${str(at(at(at(request, 'links'), 'self'), 'href'))}):\n\n` +
      `**Reply**:\n\`\`\` quote\n${str(at(reply, 'body_top'))}\n\`\`\``
    ).trim();
  },
};

export const reviewboard: Integration = {
  name: 'reviewboard',
  webhookName: 'ReviewBoard',
  eventTypes: Object.keys(BODIES),
  handle(request) {
    const payload = request.json();
    const event = eventHeader(request, 'X-ReviewBoard-Event', 'Review Board');
    if (!Object.hasOwn(BODIES, event)) return unsupportedEvent(event);
    const content = BODIES[event]!(payload);
    const topic = str(at(at(at(at(payload, 'review_request'), 'links'), 'repository'), 'title'));
    return { topic, content, event };
  },
};
