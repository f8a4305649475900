import type { Conversation } from '../lib/narrow';
import { topicKey, type Subscription } from '../store/model';
import { Policy, topicPolicy } from '../store/personal';
import { subscriptions, topics } from '../store/store';
import { hrefFor } from '../lib/router';
import { filterChannels } from './filter';
import { FilterBox, Section, Unread } from './section';
import { channelFilter } from './state';

type Count = (key: string) => number;

/** The subscribed channels, with "Filter channels" above them and the open channel's topics under it. */
export function ChannelSection({ conversation, count }: { conversation: Conversation | null; count: Count }) {
  const all = subscriptions.value;
  const query = channelFilter.value;
  const shown = filterChannels(all, query);
  const unread = all.reduce((sum, s) => sum + count(`s:${s.stream_id}`), 0);
  return (
    <Section name="channels" title="Channels" unread={unread}>
      {all.length > 0 && (
        <FilterBox
          id="channel-filter"
          label="Filter channels"
          value={query}
          onChange={(v) => (channelFilter.value = v)}
        />
      )}
      <ul class="channel-rows" aria-label="Channels">
        {shown.map((s) => (
          <ChannelRow key={s.stream_id} s={s} conversation={conversation} count={count} />
        ))}
      </ul>
      {query.trim() !== '' && shown.length === 0 && (
        <p class="no-match" role="status">
          No channels match.
        </p>
      )}
    </Section>
  );
}

function ChannelRow({ s, conversation, count }: { s: Subscription; conversation: Conversation | null; count: Count }) {
  const inChannel = conversation?.kind === 'stream' && conversation.streamId === s.stream_id;
  const channelTopics = inChannel ? (topics.value.get(s.stream_id) ?? []) : [];
  return (
    <li>
      <a
        class={`conversation ${s.is_muted ? 'muted' : ''}`}
        data-stream={s.name}
        href={hrefFor({ view: 'narrow', terms: [{ operator: 'channel', operand: s.stream_id }] })}
        aria-current={inChannel && conversation.topic === undefined ? 'page' : undefined}
      >
        <span class="swatch" style={{ background: s.color ?? '#888' }} aria-hidden="true" />
        <span class="name">#{s.name}</span>
        {s.is_muted && <span class="visually-hidden">(muted)</span>}
        <Unread count={count(`s:${s.stream_id}`)} />
      </a>
      {channelTopics.length > 0 && (
        <ul class="topics" aria-label={`Topics in #${s.name}`}>
          {channelTopics
            .filter((t, i) => i < 8 || count(topicKey(s.stream_id, t)) > 0)
            .map((t) => {
              const policy = topicPolicy(s.stream_id, t);
              return (
                <li key={t}>
                  <a
                    class={`conversation topic-link ${policy === Policy.muted ? 'muted' : ''}`}
                    data-policy={policy}
                    data-topic={t}
                    href={hrefFor({
                      view: 'narrow',
                      terms: [
                        { operator: 'channel', operand: s.stream_id },
                        { operator: 'topic', operand: t },
                      ],
                    })}
                    aria-current={conversation?.kind === 'stream' && conversation.topic === t ? 'page' : undefined}
                  >
                    <span class="name">{t}</span>
                    {policy === Policy.muted && <span class="visually-hidden">(muted)</span>}
                    {policy === Policy.followed && (
                      <span class="followed" role="img" aria-label="followed">
                        ◉
                      </span>
                    )}
                    <Unread count={count(topicKey(s.stream_id, t))} />
                  </a>
                </li>
              );
            })}
        </ul>
      )}
    </li>
  );
}
