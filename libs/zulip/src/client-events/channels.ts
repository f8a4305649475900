/** The events about channels and one's subscriptions to them. */
import type { StreamDict, SubscriptionDict } from './records.js';

export type StreamEvent =
  | { type: 'stream'; op: 'create'; streams: StreamDict[] }
  | { type: 'stream'; op: 'delete'; streams: { stream_id: number }[]; stream_ids: number[] }
  | {
      type: 'stream';
      op: 'update';
      stream_id: number;
      name: string;
      property: string;
      value: unknown;
      /** Description changes. */
      rendered_description?: string;
      /** Privacy changes: the other privacy fields. */
      history_public_to_subscribers?: boolean;
      is_web_public?: boolean;
    };

export type SubscriptionEvent =
  | { type: 'subscription'; op: 'add'; subscriptions: SubscriptionDict[] }
  | { type: 'subscription'; op: 'remove'; subscriptions: { name: string; stream_id: number }[] }
  | { type: 'subscription'; op: 'update'; stream_id: number; property: string; value: unknown }
  | { type: 'subscription'; op: 'peer_add' | 'peer_remove'; stream_ids: number[]; user_ids: number[] };

export type ChannelEvents = StreamEvent | SubscriptionEvent;
