import type { contracts, PayloadOf } from '@confab/events';
import { ROLE_ADMINISTRATOR, ROLE_GUEST, type StreamEvent } from '@confab/zulip';
import { acceptsType, type QueueDescriptor } from '../domain/descriptor.js';
import { streamDict, subscriptionDict } from '../domain/shaping.js';
import type { Delivery } from './fanout.js';

type Channel = contracts.ChannelRecord;

/** Archived channels reach only clients with the archived_channels capability. */
const visible = (queue: QueueDescriptor, channel: Channel) =>
  !channel.is_archived || queue.capabilities.archivedChannels;

export function streamCreated(payload: PayloadOf<typeof contracts.streamCreated>): Delivery[] {
  return [
    {
      users: payload.user_ids,
      build: (ctx) => {
        if (!acceptsType(ctx.queue, 'stream')) return [];
        const streams = payload.streams.filter((s) => visible(ctx.queue, s)).map(streamDict);
        return streams.length > 0 ? [{ type: 'stream', op: 'create', streams }] : [];
      },
    },
  ];
}

/**
 * Who hears that others joined or left a channel (peer_add / peer_remove): for a public channel every non-guest
 * of the organization, for a private one its administrators. The changed users themselves get add / remove.
 * The payload does not list a private channel's other subscribers, so they are not told.
 */
function isPeer(queue: QueueDescriptor, channel: Channel, changed: ReadonlySet<number>): boolean {
  if (changed.has(queue.userId)) return false;
  if (channel.invite_only) return queue.role <= ROLE_ADMINISTRATOR;
  return queue.role !== ROLE_GUEST;
}

function peerDeliveries(
  changes: readonly { stream_id: number; user_ids: number[] }[],
  channels: ReadonlyMap<number, Channel>,
  op: 'peer_add' | 'peer_remove',
): Delivery[] {
  const deliveries: Delivery[] = [];
  for (const change of changes) {
    const channel = channels.get(change.stream_id);
    if (!channel || change.user_ids.length === 0) continue;
    const changed = new Set(change.user_ids);
    deliveries.push({
      realm: channel.realm_id,
      build: (ctx) =>
        acceptsType(ctx.queue, 'subscription') && visible(ctx.queue, channel) && isPeer(ctx.queue, channel, changed)
          ? [{ type: 'subscription', op, stream_ids: [change.stream_id], user_ids: change.user_ids }]
          : [],
    });
  }
  return deliveries;
}

/** Zulip's subscription add (to each new subscriber, with their own settings) and peer_add (to the others). */
export function subscriptionAdded(payload: PayloadOf<typeof contracts.subscriptionAdded>): Delivery[] {
  const channels = new Map(payload.streams.map((s) => [s.stream_id, s]));
  const byUser = new Map<number, PayloadOf<typeof contracts.subscriptionAdded>['subscriptions']>();
  for (const sub of payload.subscriptions) {
    const list = byUser.get(sub.user_id) ?? [];
    list.push(sub);
    byUser.set(sub.user_id, list);
  }
  const deliveries: Delivery[] = [
    {
      users: [...byUser.keys()],
      build: (ctx) => {
        if (!acceptsType(ctx.queue, 'subscription')) return [];
        const subscriptions = (byUser.get(ctx.queue.userId) ?? []).flatMap((sub) => {
          const channel = channels.get(sub.stream_id);
          return channel && visible(ctx.queue, channel) ? [subscriptionDict(channel, sub)] : [];
        });
        return subscriptions.length > 0 ? [{ type: 'subscription', op: 'add', subscriptions }] : [];
      },
    },
  ];
  return [...deliveries, ...peerDeliveries(payload.changes, channels, 'peer_add')];
}

/** Zulip's subscription remove (to those who left) and peer_remove (to the others). */
export function subscriptionRemoved(payload: PayloadOf<typeof contracts.subscriptionRemoved>): Delivery[] {
  const channels = new Map(payload.streams.map((s) => [s.stream_id, s]));
  const byUser = new Map<number, number[]>();
  for (const change of payload.changes) {
    for (const userId of change.user_ids) byUser.set(userId, [...(byUser.get(userId) ?? []), change.stream_id]);
  }
  const deliveries: Delivery[] = [
    {
      users: [...byUser.keys()],
      build: (ctx) => {
        if (!acceptsType(ctx.queue, 'subscription')) return [];
        const subscriptions = (byUser.get(ctx.queue.userId) ?? []).flatMap((streamId) => {
          const channel = channels.get(streamId);
          return channel && visible(ctx.queue, channel) ? [{ name: channel.name, stream_id: streamId }] : [];
        });
        return subscriptions.length > 0 ? [{ type: 'subscription', op: 'remove', subscriptions }] : [];
      },
    },
  ];
  return [...deliveries, ...peerDeliveries(payload.changes, channels, 'peer_remove')];
}

/**
 * Zulip's `stream` update events, one per changed property. Archiving reaches clients without the
 * archived_channels capability as the channel's deletion, as Zulip sends it to them.
 */
export function streamUpdated(payload: PayloadOf<typeof contracts.streamUpdated>): Delivery[] {
  const channel = payload.stream;
  const gone: StreamEvent = {
    type: 'stream',
    op: 'delete',
    streams: [{ stream_id: channel.stream_id }],
    stream_ids: [channel.stream_id],
  };
  return [
    {
      users: payload.lost_user_ids,
      build: (ctx) => (acceptsType(ctx.queue, 'stream') ? [gone] : []),
    },
    {
      users: payload.user_ids,
      build: (ctx) => {
        if (!acceptsType(ctx.queue, 'stream')) return [];
        const events: StreamEvent[] = [];
        for (const change of payload.changes) {
          if (change.property === 'is_archived' && !ctx.queue.capabilities.archivedChannels) {
            events.push(
              change.value === true ? gone : { type: 'stream', op: 'create', streams: [streamDict(channel)] },
            );
            continue;
          }
          if (!visible(ctx.queue, channel) && change.property !== 'is_archived') continue;
          events.push({ type: 'stream', op: 'update', stream_id: channel.stream_id, name: channel.name, ...change });
        }
        return events;
      },
    },
  ];
}

/** Zulip's `subscription` update event(s), to the user who changed their settings. */
export function subscriptionUpdated(payload: PayloadOf<typeof contracts.subscriptionUpdated>): Delivery[] {
  return [
    {
      users: [payload.user_id],
      build: (ctx) =>
        acceptsType(ctx.queue, 'subscription')
          ? payload.changes.map((c) => ({
              type: 'subscription',
              op: 'update',
              stream_id: payload.stream_id,
              property: c.property,
              value: c.value,
            }))
          : [],
    },
  ];
}
