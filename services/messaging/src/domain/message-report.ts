import { invalid } from '@confab/errors';
import { messageLinkSyntax, unusedFence } from '@confab/markdown';
import { directMessageUrl } from '@confab/zulip';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { accessMessage } from './fetch.js';
import { globalTime, mentionList, silentMention } from './notice-text.js';
import { sendMessage } from './send.js';
import { MAX_MESSAGE_LENGTH, truncate } from './text.js';
import type { StoredMessage, User } from './types.js';

/** Zulip's Realm.REPORT_MESSAGE_REASONS. */
export const REPORT_REASONS = {
  spam: 'Spam',
  harassment: 'Harassment',
  inappropriate: 'Inappropriate content',
  norms: 'Violates community norms',
  other: 'Other reason',
} as const;
export type ReportType = keyof typeof REPORT_REASONS;

/** Zulip's Realm.MAX_REPORT_MESSAGE_EXPLANATION_LENGTH. */
export const MAX_REPORT_DESCRIPTION_LENGTH = 1000;
/** Zulip's MAX_REPORT_MESSAGE_SNIPPET_LENGTH: room left for the notes and the template. */
const MAX_SNIPPET_LENGTH = MAX_MESSAGE_LENGTH - MAX_REPORT_DESCRIPTION_LENGTH - 500;

async function usersById(domain: Domain, actor: Actor, ids: readonly number[]): Promise<Map<number, User>> {
  return new Map((await domain.directory.usersByIds(actor.realm.id, ids)).map((u) => [u.id, u]));
}

/** Zulip's send_message_report: the report's text, from the reported message's conversation. */
async function reportText(
  domain: Domain,
  actor: Actor,
  message: StoredMessage,
  reported: User,
  reason: string,
  description: string,
): Promise<string> {
  const by = silentMention(actor.user);
  const at = globalTime(message.dateSent);
  let header = `${by} reported a message sent by ${silentMention(reported)} at ${at}.`;
  let original: string;
  if (message.channelId !== null) {
    const channel = await domain.directory.channel(message.channelId);
    const link = messageLinkSyntax(
      { id: message.channelId, name: channel?.name ?? '' },
      message.topic,
      message.id,
      actor.realm.emptyTopicDisplayName,
    );
    original = `Original message at ${link}`;
  } else {
    const participants = message.dmUserIds ?? [];
    const people = await usersById(domain, actor, participants);
    if (participants.length > 2) {
      const others = participants.filter((id) => id !== reported.id).flatMap((id) => people.get(id) ?? []);
      header = `${by} reported a message sent by ${silentMention(reported)} to ${mentionList(others)} at ${at}.`;
    } else if (reported.id === actor.user.id) {
      // One's own message in a one-on-one conversation: name the other person (or oneself, to oneself).
      const other = people.get(participants.find((id) => id !== actor.user.id) ?? actor.user.id) ?? actor.user;
      header = `${by} reported a message sent by ${silentMention(reported)} to ${silentMention(other)} at ${at}.`;
    }
    original = `[Original message](${directMessageUrl(actor.realm.url, participants, message.id)})`;
  }
  const snippet = truncate(message.content, MAX_SNIPPET_LENGTH, '\n[message truncated]');
  const fence = unusedFence(snippet);
  return `${header}\n\`\`\`quote\n**${reason}**. ${description}\n\`\`\`\n\n${fence} spoiler ${original}\n${snippet}\n${fence}\n`;
}

/**
 * POST /messages/{message_id}/report (Zulip's report_message_backend): the Notification Bot posts the report to
 * the organization's moderation request channel, in the topic "<reported user> moderation".
 */
export async function reportMessage(
  domain: Domain,
  actor: Actor,
  messageId: number,
  reportType: ReportType,
  description: string,
): Promise<void> {
  if (reportType === 'other' && description === '') throw invalid('An explanation is required.');
  const channelId = actor.realm.moderationRequestChannelId;
  if (channelId === null) throw invalid('Message reporting is not enabled in this organization.');
  const { message } = await accessMessage(domain, actor, messageId);
  const [bot, reported, channel] = await Promise.all([
    domain.readModel.notificationBot(actor.realm.id),
    domain.directory.user(message.senderId),
    domain.directory.channel(channelId),
  ]);
  if (!bot || !reported || !channel) throw invalid('Message reporting is not enabled in this organization.');
  const content = await reportText(domain, actor, message, reported, REPORT_REASONS[reportType], description);
  await sendMessage(
    domain,
    { user: bot, realm: actor.realm, requestId: actor.requestId },
    {
      type: 'stream',
      to: String(channel.id),
      topic: channel.topicsPolicy === 'empty_topic_only' ? '' : `${reported.fullName} moderation`,
      content,
      queueId: undefined,
      localId: undefined,
      readBySender: true,
      client: 'Internal',
    },
  );
}
