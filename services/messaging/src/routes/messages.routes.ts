import { invalid } from '@confab/errors';
import { p, t } from '@confab/http';
import { clientName } from '../domain/client.js';
import { fetchMessages, fetchOneMessage, parseAnchor } from '../domain/fetch.js';
import { narrowSchema } from './narrow.params.js';
import { updateFlagsForNarrow } from '../domain/flags-narrow.js';
import { channelTopics, deleteMessage } from '../domain/message-actions.js';
import { markAsRead, updateFlags } from '../domain/message-flags.js';
import { editMessage } from '../domain/message-edit.js';
import { messageHistory } from '../domain/message-history.js';
import { messagesMatchingNarrow } from '../domain/matches-narrow.js';
import { readReceipts } from '../domain/read-receipts.js';
import {
  MAX_REPORT_DESCRIPTION_LENGTH,
  REPORT_REASONS,
  reportMessage,
  type ReportType,
} from '../domain/message-report.js';
import { MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH, testWelcomeBotMessage } from '../domain/welcome-bot.js';
import { addSubmessage } from '../domain/submessages.js';
import { sendMessage } from '../domain/send.js';
import type { MessagingDeps } from '../deps.js';
import { actorRoute } from './actor-route.js';

const REPORT_TYPES = Object.keys(REPORT_REASONS) as ReportType[];

export function messageRoutes(deps: MessagingDeps) {
  const { domain } = deps;
  const withActor = actorRoute(domain);
  return [
    withActor({
      method: 'POST',
      path: '/messages',
      auth: 'user',
      // Declared in Zulip's order, so the first missing or invalid parameter is the one Zulip reports.
      params: {
        forged: p.string().optional(),
        local_id: p.string().optional(),
        content: p.string({ nulCheckedByDomain: true }),
        queue_id: p.string().optional(),
        read_by_sender: p.bool().optional(),
        sender: p.string().optional(),
        to: p.string().optional(),
        type: p.enum('direct', 'private', 'stream', 'channel'),
        topic: p.string({ nulCheckedByDomain: true }).alias('subject').optional(),
        client: p.string().optional(),
      },
      async handler({ actor, params, req }) {
        if (params.forged === 'yes' || params.forged === 'true') throw invalid('User not authorized for this query');
        if (params.sender !== undefined) throw invalid('Invalid mirrored message');
        return sendMessage(domain, actor, {
          type: params.type,
          to: params.to,
          topic: params.topic,
          content: params.content,
          queueId: params.queue_id,
          localId: params.local_id,
          readBySender: params.read_by_sender,
          client: clientName(req.headers['user-agent'], params.client),
        });
      },
    }),
    withActor({
      method: 'GET',
      path: '/messages',
      auth: 'user',
      params: {
        anchor: p.string().optional(),
        include_anchor: p.bool().default(true),
        num_before: p.int({ min: 0 }).optional(),
        num_after: p.int({ min: 0 }).optional(),
        narrow: p.json(narrowSchema).default([]),
        use_first_unread_anchor: p.bool().default(false),
        client_gravatar: p.bool().default(true),
        apply_markdown: p.bool().default(true),
        message_ids: p.intList().optional(),
        allow_empty_topic_name: p.bool().default(false),
      },
      async handler({ actor, params }) {
        const byIds = params.message_ids !== undefined;
        return fetchMessages(domain, actor, {
          anchor: byIds ? 0 : parseAnchor(params.anchor, params.use_first_unread_anchor),
          includeAnchor: params.include_anchor,
          numBefore: params.num_before,
          numAfter: params.num_after,
          narrow: params.narrow,
          messageIds: params.message_ids,
          options: {
            applyMarkdown: params.apply_markdown,
            clientGravatar: params.client_gravatar,
            allowEmptyTopicName: params.allow_empty_topic_name,
          },
        });
      },
    }),
    withActor({
      method: 'GET',
      path: '/messages/matches_narrow',
      auth: 'user',
      params: { msg_ids: p.json(t.list(t.int())), narrow: p.json(narrowSchema) },
      handler: ({ actor, params }) => messagesMatchingNarrow(domain, actor, params.msg_ids, params.narrow),
    }),
    withActor({
      method: 'GET',
      path: '/messages/{message_id:int}',
      auth: 'user',
      params: { apply_markdown: p.bool().default(true), allow_empty_topic_name: p.bool().default(false) },
      async handler({ actor, params, path }) {
        return fetchOneMessage(domain, actor, path.message_id, {
          applyMarkdown: params.apply_markdown,
          clientGravatar: false,
          allowEmptyTopicName: params.allow_empty_topic_name,
        });
      },
    }),
    withActor({
      method: 'POST',
      path: '/messages/flags',
      auth: 'user',
      params: { messages: p.intList(), op: p.string(), flag: p.string() },
      async handler({ actor, params }) {
        return updateFlags(domain, actor, { messages: params.messages, op: params.op, flag: params.flag });
      },
    }),
    withActor({
      method: 'POST',
      path: '/messages/flags/narrow',
      auth: 'user',
      params: {
        anchor: p.string(),
        include_anchor: p.bool().default(true),
        num_before: p.int({ min: 0 }),
        num_after: p.int({ min: 0 }),
        narrow: p.json(narrowSchema).default([]),
        op: p.string(),
        flag: p.string(),
      },
      async handler({ actor, params }) {
        return updateFlagsForNarrow(domain, actor, {
          anchor: parseAnchor(params.anchor, false),
          includeAnchor: params.include_anchor,
          numBefore: params.num_before,
          numAfter: params.num_after,
          narrow: params.narrow,
          op: params.op,
          flag: params.flag,
        });
      },
    }),
    withActor({
      method: 'POST',
      path: '/mark_all_as_read',
      auth: 'user',
      async handler({ actor }) {
        await markAsRead(domain, actor, {});
        return { complete: true };
      },
    }),
    withActor({
      method: 'POST',
      path: '/mark_stream_as_read',
      auth: 'user',
      params: { stream_id: p.int() },
      async handler({ actor, params }) {
        await markAsRead(domain, actor, { channelId: params.stream_id });
        return {};
      },
    }),
    withActor({
      method: 'POST',
      path: '/mark_topic_as_read',
      auth: 'user',
      params: { stream_id: p.int(), topic_name: p.string() },
      async handler({ actor, params }) {
        await markAsRead(domain, actor, {
          channelId: params.stream_id,
          topic: params.topic_name,
        });
        return {};
      },
    }),
    withActor({
      method: 'GET',
      path: '/users/me/{stream_id:int}/topics',
      auth: 'user',
      params: { allow_empty_topic_name: p.bool().default(false) },
      async handler({ actor, params, path }) {
        return { topics: await channelTopics(domain, actor, path.stream_id, params.allow_empty_topic_name) };
      },
    }),
    withActor({
      method: 'PATCH',
      path: '/messages/{message_id:int}',
      auth: 'user',
      params: {
        content: p.string({ nulCheckedByDomain: true }).optional(),
        prev_content_sha256: p.string().optional(),
        propagate_mode: p.enum('change_one', 'change_later', 'change_all').default('change_one'),
        send_notification_to_new_thread: p.bool().default(true),
        send_notification_to_old_thread: p.bool().default(false),
        stream_id: p.int({ min: 0 }).optional(),
        topic: p.string({ nulCheckedByDomain: true }).alias('subject').optional(),
      },
      async handler({ actor, params, path }) {
        return editMessage(domain, actor, path.message_id, {
          content: params.content,
          topic: params.topic,
          streamId: params.stream_id,
          propagateMode: params.propagate_mode,
          prevContentSha256: params.prev_content_sha256,
          notifyOldThread: params.send_notification_to_old_thread,
          notifyNewThread: params.send_notification_to_new_thread,
        });
      },
    }),
    withActor({
      method: 'POST',
      path: '/messages/{message_id:int}/report',
      auth: 'user',
      params: {
        report_type: p.enum(...REPORT_TYPES),
        description: p.string({ maxLength: MAX_REPORT_DESCRIPTION_LENGTH }).default(''),
      },
      async handler({ actor, params, path }) {
        await reportMessage(domain, actor, path.message_id, params.report_type, params.description);
        return {};
      },
    }),
    withActor({
      method: 'POST',
      path: '/realm/test_welcome_bot_custom_message',
      auth: 'user',
      params: { welcome_message_custom_text: p.string({ maxLength: MAX_WELCOME_MESSAGE_CUSTOM_TEXT_LENGTH }) },
      async handler({ actor, params }) {
        return { message_id: await testWelcomeBotMessage(domain, actor, params.welcome_message_custom_text) };
      },
    }),
    withActor({
      method: 'GET',
      path: '/messages/{message_id:int}/history',
      auth: 'user',
      params: { allow_empty_topic_name: p.bool().default(false) },
      async handler({ actor, params, path }) {
        return messageHistory(domain, actor, path.message_id, params.allow_empty_topic_name);
      },
    }),
    withActor({
      method: 'POST',
      path: '/submessage',
      auth: 'user',
      params: { message_id: p.int(), msg_type: p.string(), content: p.string() },
      async handler({ actor, params }) {
        await addSubmessage(domain, actor, {
          messageId: params.message_id,
          msgType: params.msg_type,
          content: params.content,
        });
        return {};
      },
    }),
    withActor({
      method: 'GET',
      path: '/messages/{message_id:int}/read_receipts',
      auth: 'user',
      async handler({ actor, path }) {
        return readReceipts(domain, actor, path.message_id);
      },
    }),
    withActor({
      method: 'DELETE',
      path: '/messages/{message_id:int}',
      auth: 'user',
      async handler({ actor, path }) {
        await deleteMessage(domain, actor, path.message_id);
        return {};
      },
    }),
    withActor({
      method: 'POST',
      path: '/messages/render',
      auth: 'user',
      params: { content: p.string() },
      async handler({ actor, params }) {
        const rendered = await domain.renderer.render(actor.realm, params.content, actor.user);
        return { rendered: rendered.html };
      },
    }),
  ];
}
