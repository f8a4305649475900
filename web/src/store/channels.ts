/**
 * The user's channels and subscriptions after a `subscription` or `stream` event (pure: the store keeps the lists in
 * its signals and assigns what these return). Both lists stay sorted by name.
 */
import { assertNever, type StreamEvent, type SubscriptionEvent } from '@confab/zulip';
import type { Stream, Subscription } from './model';

export const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

export function subscriptionsAfter(subscriptions: Subscription[], event: SubscriptionEvent): Subscription[] {
  switch (event.op) {
    case 'add': {
      const added = event.subscriptions;
      const ids = new Set(added.map((s) => s.stream_id));
      return [...subscriptions.filter((s) => !ids.has(s.stream_id)), ...added].sort(byName);
    }
    case 'remove': {
      const ids = new Set(event.subscriptions.map((s) => s.stream_id));
      return subscriptions.filter((s) => !ids.has(s.stream_id));
    }
    case 'update': {
      const id = event.stream_id;
      // Zulip sends a mute as `is_muted` and as the older `in_home_view`, its opposite.
      const [property, value] =
        event.property === 'in_home_view' ? ['is_muted', !event.value] : [event.property, event.value];
      return subscriptions.map((s) => (s.stream_id === id ? { ...s, [property]: value } : s));
    }
    case 'peer_add':
    case 'peer_remove':
      return subscriptions;
    default:
      return assertNever(event);
  }
}

interface Channels {
  streams: Stream[];
  subscriptions: Subscription[];
}

export function channelsAfter({ streams, subscriptions }: Channels, event: StreamEvent): Channels {
  switch (event.op) {
    case 'create': {
      const added = event.streams;
      const ids = new Set(added.map((s) => s.stream_id));
      return { streams: [...streams.filter((s) => !ids.has(s.stream_id)), ...added].sort(byName), subscriptions };
    }
    case 'delete': {
      const ids = new Set(event.streams.map((s) => s.stream_id));
      const kept = (s: { stream_id: number }) => !ids.has(s.stream_id);
      // Zulip archives rather than deletes: the channel leaves the lists.
      return { streams: streams.filter(kept), subscriptions: subscriptions.filter(kept) };
    }
    case 'update': {
      const id = event.stream_id;
      const property = event.property;
      const patch: Record<string, unknown> = { [property]: event.value };
      if (property === 'description' && typeof event.rendered_description === 'string')
        patch.rendered_description = event.rendered_description;
      const archived = property === 'is_archived' && event.value === true;
      const update = <T extends { stream_id: number; name: string }>(list: T[]): T[] =>
        archived
          ? list.filter((s) => s.stream_id !== id)
          : list.map((s) => (s.stream_id === id ? { ...s, ...patch } : s)).sort(byName);
      return { streams: update(streams), subscriptions: update(subscriptions) };
    }
    default:
      return assertNever(event);
  }
}
