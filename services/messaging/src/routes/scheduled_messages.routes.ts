import { p } from '@confab/http';
import { clientName } from '../domain/client.js';
import {
  createScheduled,
  deleteScheduled,
  editScheduled,
  listScheduled,
  type DeliveryQueue,
} from '../domain/scheduled-messages.js';
import { createReminder, deleteReminder, listReminders } from '../domain/reminders.js';
import type { MessagingDeps } from '../deps.js';
import { actorRoute } from './actor-route.js';

const type = () => p.enum('direct', 'private', 'stream', 'channel');
const at = (seconds: number) => new Date(seconds * 1000);

/** Scheduled messages (Zulip's /scheduled_messages); `queue` holds their delivery jobs. */
export function scheduledMessageRoutes(deps: MessagingDeps, queue: DeliveryQueue) {
  const { domain } = deps;
  const withActor = actorRoute(domain);
  return [
    withActor({
      method: 'GET',
      path: '/reminders',
      auth: 'user',
      async handler({ actor }) {
        return listReminders(domain, actor);
      },
    }),
    withActor({
      method: 'POST',
      path: '/reminders',
      auth: 'user',
      params: { message_id: p.int(), scheduled_delivery_timestamp: p.int(), note: p.string().optional() },
      async handler({ actor, params, req }) {
        const reminderId = await createReminder(domain, queue, actor, {
          messageId: params.message_id,
          deliverAt: at(params.scheduled_delivery_timestamp),
          note: params.note,
          client: clientName(req.headers['user-agent'], undefined),
        });
        return { reminder_id: reminderId };
      },
    }),
    withActor({
      method: 'DELETE',
      path: '/reminders/{reminder_id:int}',
      auth: 'user',
      async handler({ actor, path }) {
        await deleteReminder(domain, actor, path.reminder_id);
        return {};
      },
    }),
    withActor({
      method: 'GET',
      path: '/scheduled_messages',
      auth: 'user',
      async handler({ actor }) {
        return listScheduled(domain, actor);
      },
    }),
    withActor({
      method: 'POST',
      path: '/scheduled_messages',
      auth: 'user',
      // In Zulip's order, so the first missing or invalid parameter is the one Zulip reports.
      params: {
        type: type(),
        to: p.string(),
        topic: p.string({ nulCheckedByDomain: true }).alias('subject').optional(),
        content: p.string({ nulCheckedByDomain: true }),
        scheduled_delivery_timestamp: p.int(),
        read_by_sender: p.bool().optional(),
      },
      async handler({ actor, params, req }) {
        const id = await createScheduled(domain, queue, actor, {
          type: params.type,
          to: params.to,
          topic: params.topic,
          content: params.content,
          deliverAt: at(params.scheduled_delivery_timestamp),
          readBySender: params.read_by_sender,
          client: clientName(req.headers['user-agent'], undefined),
        });
        return { scheduled_message_id: id };
      },
    }),
    withActor({
      method: 'PATCH',
      path: '/scheduled_messages/{scheduled_message_id:int}',
      auth: 'user',
      params: {
        type: type().optional(),
        to: p.string().optional(),
        topic: p.string({ nulCheckedByDomain: true }).alias('subject').optional(),
        content: p.string({ nulCheckedByDomain: true }).optional(),
        scheduled_delivery_timestamp: p.int().optional(),
      },
      async handler({ actor, params, path, req }) {
        const seconds = params.scheduled_delivery_timestamp;
        await editScheduled(domain, queue, actor, path.scheduled_message_id, {
          type: params.type,
          to: params.to,
          topic: params.topic,
          content: params.content,
          deliverAt: seconds === undefined ? undefined : at(seconds),
          client: clientName(req.headers['user-agent'], undefined),
        });
        return {};
      },
    }),
    withActor({
      method: 'DELETE',
      path: '/scheduled_messages/{scheduled_message_id:int}',
      auth: 'user',
      async handler({ actor, path }) {
        await deleteScheduled(domain, actor, path.scheduled_message_id);
        return {};
      },
    }),
  ];
}
