import { createHash } from 'node:crypto';
import type { Logger } from '@confab/logging';
import {
  messagePayload,
  realmUrlOf,
  removePayload,
  type NotificationIdentity,
} from '../domain/notification-payloads.js';
import { encryptWithPushKey, sealForDevice } from '../domain/sealing.js';
import { hasActiveToken } from '../domain/test_notifications.js';
import type { RelayClient } from '../relay/client.js';
import type { NotifyRequest } from '../relay/protocol.js';
import type { NotificationsRepository } from '../repositories/notifications.repository.js';
import type { PushRepository } from '../repositories/push.repository.js';
import type { JobOf } from './catalog.js';

/** Which of these users are away (the settings service's presence). */
export interface PresenceSource {
  away(realmId: number, userIds: readonly number[]): Promise<number[]>;
}

export interface NotifyJobDeps {
  repo: PushRepository;
  notifications: NotificationsRepository;
  relay: RelayClient;
  presence: PresenceSource;
  logger: Logger;
  externalUrl: string;
  /** Called when a job gives up for good (its notifications are marked failed). */
  deadLettered: (queue: string) => void;
}

/** One device of a user: its key in notification_deliveries, and how to address and encrypt for it. */
interface Target {
  key: string;
  request: (payload: Record<string, unknown>) => Promise<NotifyRequest>;
}

async function targetsOf(deps: NotifyJobDeps, userId: number): Promise<Target[]> {
  const [devices, clients] = await Promise.all([deps.repo.activeDevices(userId), deps.repo.clientDevicesOf(userId)]);
  return [
    ...devices.map((device) => ({
      key: `p${device.id}`,
      request: async (payload: Record<string, unknown>): Promise<NotifyRequest> => ({
        device_id: device.relayDeviceId!,
        push_account_id: device.pushAccountId,
        encrypted_data: await sealForDevice(device.pushPublicKey, {
          ...payload,
          push_account_id: device.pushAccountId,
        }),
        priority: payload.type === 'remove' ? 'normal' : 'high',
      }),
    })),
    ...clients.filter(hasActiveToken).map((device) => ({
      key: `c${device.id}`,
      request: async (payload: Record<string, unknown>): Promise<NotifyRequest> => ({
        device_id: device.relayDeviceId!,
        push_key_id: device.pushKeyId!,
        encrypted_data: await encryptWithPushKey(device.pushKey!, payload),
        priority: payload.type === 'remove' ? 'normal' : 'high',
      }),
    })),
  ];
}

const isLastAttempt = (job: { attemptsMade: number; opts: { attempts?: number } }) =>
  job.attemptsMade + 1 >= (job.opts.attempts ?? 1);

/**
 * A message's notifications (push-message): decides once who of its candidates is away (present users with
 * enable_online_push_notifications off are not notified), then sends to each device of each away user that has not
 * had it. Each delivery has its own idempotency key (message, user, device) and is recorded once the relay accepted
 * it, so neither a retry nor a re-run notifies a device twice. A failure is thrown for BullMQ to retry with backoff;
 * the last attempt marks what is left failed and counts a dead letter.
 */
export async function runMessageNotification(deps: NotifyJobDeps, job: JobOf<'push-message'>): Promise<string> {
  const { messageId } = job.data;
  const state = await deps.notifications.jobState(messageId);
  if (!state || state.open.length === 0) return 'done';
  const { message, realmId } = state;
  let open = state.open;

  const undecided = open.filter((n) => n.status === 'pending');
  if (undecided.length > 0) {
    const ask = undecided.filter((n) => !n.evenIfPresent).map((n) => n.userId);
    const away = new Set(ask.length > 0 ? await deps.presence.away(realmId, ask) : []);
    const present = ask.filter((id) => !away.has(id));
    open = await deps.notifications.decidePush(
      messageId,
      undecided.map((n) => n.userId),
      present,
    );
  }

  const realmUrl = realmUrlOf(message.sender_realm_str, deps.externalUrl);
  let failed = 0;
  for (const notification of open.filter((n) => n.status === 'due')) {
    const who: NotificationIdentity = { realmUrl, realmName: null, userId: notification.userId };
    const payload = messagePayload(who, message);
    const [delivered, targets] = await Promise.all([
      deps.notifications.deliveredTo(messageId, notification.userId, 'message'),
      targetsOf(deps, notification.userId),
    ]);
    let userFailed = false;
    for (const target of targets) {
      if (delivered.has(target.key)) continue;
      const result = await deps.relay.notify(await target.request(payload), {
        idempotencyKey: `message:${messageId}:${notification.userId}:${target.key}`,
        attempts: 1,
      });
      if (!result.ok) {
        userFailed = true;
        deps.logger.warn(
          { message_id: messageId, user_id: notification.userId, device: target.key, failure: result.failure },
          'push notification not sent',
        );
        continue;
      }
      await deps.notifications.recordDeliveries(notification.userId, target.key, 'message', [messageId]);
    }
    if (userFailed) failed++;
    else await deps.notifications.setStatus(messageId, [notification.userId], ['due'], 'sent');
  }
  if (failed === 0) return 'sent';
  if (isLastAttempt(job)) {
    await deps.notifications.setStatus(
      messageId,
      open.map((n) => n.userId),
      ['due'],
      'failed',
    );
    deps.deadLettered('push-message');
    return 'failed';
  }
  throw new Error(`push notifications of message ${messageId} not sent to ${failed} user(s)`);
}

/**
 * The removal of a user's notifications of messages they read (push-remove): to each device that showed some of
 * them, one "remove" naming those messages, keyed by device and messages so a re-run or retry sends it once.
 */
export async function runRemoval(deps: NotifyJobDeps, job: JobOf<'push-remove'>): Promise<string> {
  const { userId } = job.data;
  const pending = await deps.notifications.pendingRemovals(userId);
  if (!pending) return 'done';
  const realmUrl = deps.externalUrl;
  const stored = await deps.notifications.message(pending.messageIds[0]!);
  const who: NotificationIdentity = {
    realmUrl: stored ? realmUrlOf(stored.message.sender_realm_str, deps.externalUrl) : realmUrl,
    realmName: null,
    userId,
  };
  const targets = new Map((await targetsOf(deps, userId)).map((t) => [t.key, t]));
  let failed = false;
  for (const [device, messageIds] of pending.byDevice) {
    const target = targets.get(device);
    // A device removed since shows nothing any more.
    if (target) {
      const digest = createHash('sha256').update(messageIds.join(',')).digest('hex').slice(0, 32);
      const result = await deps.relay.notify(await target.request(removePayload(who, messageIds)), {
        idempotencyKey: `remove:${userId}:${device}:${digest}`,
        attempts: 1,
      });
      if (!result.ok) {
        failed = true;
        deps.logger.warn({ user_id: userId, device, failure: result.failure }, 'push removal not sent');
        continue;
      }
    }
    await deps.notifications.recordDeliveries(userId, device, 'remove', messageIds);
  }
  if (!failed || isLastAttempt(job)) {
    await deps.notifications.finishRemovals(userId, pending.messageIds);
    if (failed) deps.deadLettered('push-remove');
    return failed ? 'failed' : 'sent';
  }
  throw new Error(`push removals for user ${userId} not sent`);
}
