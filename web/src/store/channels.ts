/**
 * The user's channels and subscriptions after a `subscription` or `stream` event (pure: the store keeps the lists in
 * its signals and assigns what these return). Both lists stay sorted by name.
 */
import type { ServerEvent } from '../lib/events';
import type { Stream, Subscription } from './model';

export const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);

export function subscriptionsAfter(subscriptions: Subscription[], event: ServerEvent): Subscription[] {
  if (event.op === 'add') {
    const added = event.subscriptions as Subscription[];
    const ids = new Set(added.map((s) => s.stream_id));
    return [...subscriptions.filter((s) => !ids.has(s.stream_id)), ...added].sort(byName);
  }
  if (event.op === 'remove') {
    const ids = new Set((event.subscriptions as { stream_id: number }[]).map((s) => s.stream_id));
    return subscriptions.filter((s) => !ids.has(s.stream_id));
  }
  if (event.op === 'update') {
    const id = event.stream_id as number;
    // Zulip sends a mute as `is_muted` and as the older `in_home_view`, its opposite.
    const [property, value] =
      event.property === 'in_home_view' ? ['is_muted', !event.value] : [event.property as string, event.value];
    return subscriptions.map((s) => (s.stream_id === id ? { ...s, [property]: value } : s));
  }
  return subscriptions;
}

interface Channels {
  streams: Stream[];
  subscriptions: Subscription[];
}

export function channelsAfter({ streams, subscriptions }: Channels, event: ServerEvent): Channels {
  if (event.op === 'create') {
    const added = event.streams as Stream[];
    const ids = new Set(added.map((s) => s.stream_id));
    return { streams: [...streams.filter((s) => !ids.has(s.stream_id)), ...added].sort(byName), subscriptions };
  }
  if (event.op === 'delete') {
    const ids = new Set((event.streams as { stream_id: number }[]).map((s) => s.stream_id));
    const kept = (s: { stream_id: number }) => !ids.has(s.stream_id);
    // Zulip archives rather than deletes: the channel leaves the lists.
    return { streams: streams.filter(kept), subscriptions: subscriptions.filter(kept) };
  }
  if (event.op === 'update') {
    const id = event.stream_id as number;
    const property = event.property as string;
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
  return { streams, subscriptions };
}
