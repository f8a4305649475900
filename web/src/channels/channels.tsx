/**
 * Channels: every channel one may see (/register's `streams`, live through `stream` events), subscribing and
 * unsubscribing (live through `subscription` events, also when someone else subscribes you), creating one, and a
 * channel's page with its subscribers and, for those allowed, its settings (rename, description, archive).
 */
import { useEffect, useState } from 'preact/hooks';
import * as client from '../lib/client';
import { errorText, Outcome } from '../ui/outcome';
import { hrefFor, navigate } from '../lib/router';
import type { Stream } from '../store/model';
import { isAdmin, me, streams, subscriptions, users } from '../store/store';

function CreateChannel() {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [isPrivate, setPrivate] = useState(false);
  const [error, setError] = useState('');
  return (
    <form
      class="create-channel"
      aria-labelledby="create-channel-title"
      onSubmit={(e) => {
        e.preventDefault();
        setError('');
        void client.me
          .createChannel({
            subscriptions: [{ name: name.trim(), description }],
            invite_only: isPrivate,
          })
          .then(() => {
            setName('');
            setDescription('');
          })
          .catch((err: unknown) => setError(errorText(err)));
      }}
    >
      <h3 id="create-channel-title">Create a channel</h3>
      <label for="channel-new-name">Name</label>
      <input id="channel-new-name" required value={name} onInput={(e) => setName(e.currentTarget.value)} />
      <label for="channel-new-description">Description</label>
      <input id="channel-new-description" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
      <label class="check">
        <input
          id="channel-new-private"
          type="checkbox"
          checked={isPrivate}
          onChange={(e) => setPrivate(e.currentTarget.checked)}
        />
        Private (only people invited can see it)
      </label>
      <button id="channel-create" type="submit">
        Create
      </button>
      <Outcome error={error} />
    </form>
  );
}

function subscribe(name: string, on: boolean) {
  return on ? client.me.subscribe(name) : client.me.unsubscribe(name);
}

function ChannelDetail({ channel }: { channel: Stream & Record<string, unknown> }) {
  const subscribed = subscriptions.value.some((s) => s.stream_id === channel.stream_id);
  const [members, setMembers] = useState<number[] | null>(null);
  const [name, setName] = useState(channel.name);
  const [description, setDescription] = useState(channel.description);
  const [error, setError] = useState('');
  const [ok, setOk] = useState('');
  useEffect(() => {
    setName(channel.name);
    setDescription(channel.description);
  }, [channel.stream_id, channel.name, channel.description]);
  // Subscribers, fetched again when one's own subscription changes (others' arrive as peer events, not kept here).
  useEffect(() => {
    void client.channels
      .members(channel.stream_id)
      .then((answer) => setMembers(answer.subscribers))
      .catch(() => setMembers(null));
  }, [channel.stream_id, subscribed]);
  const administers =
    isAdmin.value ||
    (
      (channel.can_administer_channel_group as { direct_members?: number[] } | undefined)?.direct_members ?? []
    ).includes(me.value);
  const act = (action: () => Promise<unknown>, done: string) => {
    setError('');
    setOk('');
    void action()
      .then(() => setOk(done))
      .catch((e: unknown) => setError(errorText(e)));
  };
  return (
    <section class="channel-detail" aria-labelledby="channel-detail-title" data-channel-detail={channel.name}>
      <h3 id="channel-detail-title">
        #{channel.name} {channel.invite_only && <span class="badge">private</span>}
      </h3>
      <p class="description">{channel.description}</p>
      <p>
        <a href={hrefFor({ view: 'narrow', terms: [{ operator: 'channel', operand: channel.stream_id }] })}>
          Open #{channel.name}
        </a>
      </p>
      <button
        class="toggle-subscription"
        onClick={() => act(() => subscribe(channel.name, !subscribed), subscribed ? 'Unsubscribed' : 'Subscribed')}
      >
        {subscribed ? 'Unsubscribe' : 'Subscribe'}
      </button>
      {administers && (
        <form
          class="channel-settings"
          aria-label="Channel settings"
          onSubmit={(e) => {
            e.preventDefault();
            const params: Record<string, string> = {};
            if (name.trim() !== channel.name) params.new_name = name.trim();
            if (description !== channel.description) params.description = description;
            if (Object.keys(params).length > 0) act(() => client.channels.edit(channel.stream_id, params), 'Saved');
          }}
        >
          <label for="channel-edit-name">Name</label>
          <input id="channel-edit-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <label for="channel-edit-description">Description</label>
          <input
            id="channel-edit-description"
            value={description}
            onInput={(e) => setDescription(e.currentTarget.value)}
          />
          <button id="channel-save" type="submit">
            Save
          </button>
          <button
            id="channel-archive"
            type="button"
            onClick={() => {
              if (window.confirm(`Archive #${channel.name}?`))
                act(
                  () => client.channels.archive(channel.stream_id).then(() => navigate({ view: 'channels' })),
                  'Archived',
                );
            }}
          >
            Archive channel
          </button>
        </form>
      )}
      <Outcome error={error} ok={ok} />
      <h4>Subscribers</h4>
      {members === null ? (
        <p>Only subscribers see who else is subscribed.</p>
      ) : (
        <ul class="subscribers" aria-label={`Subscribers of #${channel.name}`}>
          {members
            .map((id) => users.value.get(id)?.full_name ?? `#${id}`)
            .sort()
            .map((n) => (
              <li key={n}>{n}</li>
            ))}
        </ul>
      )}
    </section>
  );
}

export function ChannelsPage({ channelId }: { channelId?: number }) {
  const subscribedIds = new Set(subscriptions.value.map((s) => s.stream_id));
  const all = streams.value;
  const selected = channelId === undefined ? undefined : all.find((s) => s.stream_id === channelId);
  return (
    <main class="view-pane channels-page">
      <h2 id="view-title">Channels</h2>
      <div class="channels-columns">
        <section aria-labelledby="all-channels-title">
          <h3 id="all-channels-title">All channels</h3>
          <ul class="channel-list">
            {all.map((s) => {
              const on = subscribedIds.has(s.stream_id);
              return (
                <li
                  key={s.stream_id}
                  data-channel={s.name}
                  aria-current={s.stream_id === channelId ? 'true' : undefined}
                >
                  <a href={`#channels/${s.stream_id}`}>#{s.name}</a>
                  {s.invite_only && <span class="badge">private</span>}
                  <span class="description">{s.description}</span>
                  <button
                    class="toggle-subscription"
                    aria-label={`${on ? 'Unsubscribe from' : 'Subscribe to'} #${s.name}`}
                    onClick={() => void subscribe(s.name, !on).catch(() => undefined)}
                  >
                    {on ? 'Unsubscribe' : 'Subscribe'}
                  </button>
                </li>
              );
            })}
          </ul>
          <CreateChannel />
        </section>
        {selected && <ChannelDetail channel={selected as Stream & Record<string, unknown>} />}
      </div>
    </main>
  );
}
