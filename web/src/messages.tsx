import { useEffect, useMemo, useRef } from 'preact/hooks';
import { api } from './api';
import { emojiGlyph, type Message, type Reaction } from './state';

const THUMBS_UP = { emoji_name: '+1', emoji_code: '1f44d', reaction_type: 'unicode_emoji' };

/** Reactions grouped by emoji, with whether I am among those who reacted. */
function grouped(reactions: Reaction[], me: number) {
  const groups = new Map<string, { reaction: Reaction; count: number; mine: boolean }>();
  for (const r of reactions) {
    const key = `${r.reaction_type}:${r.emoji_code}`;
    const group = groups.get(key) ?? { reaction: r, count: 0, mine: false };
    group.count += 1;
    group.mine ||= r.user_id === me;
    groups.set(key, group);
  }
  return [...groups.values()];
}

function toggleReaction(message: Message, emoji: Pick<Reaction, 'emoji_name' | 'emoji_code' | 'reaction_type'>, on: boolean) {
  const params = { emoji_name: emoji.emoji_name, emoji_code: emoji.emoji_code, reaction_type: emoji.reaction_type };
  const path = `/messages/${message.id}/reactions`;
  void (on ? api.post(path, params) : api.delete(path, params)).catch(() => undefined);
}

/** A conversation's messages: server-rendered HTML, reactions, delete for one's own; older ones load at the top. */
export function MessageList({ messages, me, onTop }: { messages: Message[]; me: number; onTop: () => Promise<void> }) {
  const list = useRef<HTMLOListElement>(null);
  const last = messages[messages.length - 1]?.id;
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [last]);
  const time = useMemo(() => new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }), []);
  return (
    <ol
      class="messages"
      ref={list}
      aria-live="polite"
      aria-label="Messages"
      onScroll={(e) => {
        if (e.currentTarget.scrollTop === 0) void onTop().catch(() => undefined);
      }}
    >
      {messages.map((m) => {
        const reactions = grouped(m.reactions ?? [], me);
        const thumbs = reactions.find((g) => g.reaction.emoji_code === THUMBS_UP.emoji_code);
        return (
          <li key={m.id} class="message" data-id={m.id}>
            <div class="meta">
              <strong>{m.sender_full_name}</strong>
              {m.type === 'stream' && <span class="topic">{m.subject}</span>}
              <time dateTime={new Date(m.timestamp * 1000).toISOString()}>{time.format(m.timestamp * 1000)}</time>
              <span class="actions">
                {!thumbs?.mine && (
                  <button class="react" aria-label="React with thumbs up" onClick={() => toggleReaction(m, THUMBS_UP, true)}>
                    +👍
                  </button>
                )}
                {m.sender_id === me && (
                  <button
                    class="delete"
                    aria-label="Delete message"
                    onClick={() => {
                      if (window.confirm('Delete this message?'))
                        void api.delete(`/messages/${m.id}`).catch(() => undefined);
                    }}
                  >
                    Delete
                  </button>
                )}
              </span>
            </div>
            <div class="content" dangerouslySetInnerHTML={{ __html: m.content }} />
            {reactions.length > 0 && (
              <div class="reactions">
                {reactions.map((g) => (
                  <button
                    key={g.reaction.emoji_code}
                    class={`reaction ${g.mine ? 'mine' : ''}`}
                    aria-pressed={g.mine}
                    aria-label={`${g.reaction.emoji_name}: ${g.count}`}
                    onClick={() => toggleReaction(m, g.reaction, !g.mine)}
                  >
                    {emojiGlyph(g.reaction)} {g.count}
                  </button>
                ))}
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}
