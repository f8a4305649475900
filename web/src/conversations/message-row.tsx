/**
 * One message of the list, with the date separator and "New messages" divider above it when it has them. A row
 * re-renders only when what it shows changes (its message object, its place in a block, its marks, its open editor,
 * picker or menu): moving the render window (render-window.ts) mounts the rows that come in and unmounts those that
 * leave, and the others are left alone (issue 45's scroll budget). What a row reads from the store (the settings,
 * channel names, custom emoji) re-renders that row alone when it changes.
 */
import { Component } from 'preact';
import * as client from '../lib/client';
import { EmojiPicker } from '../emoji/picker';
import { emojify } from '../emoji/render';
import { MessageEditor } from './editor';
import { realmEmoji } from '../store/store';
import { emojiGlyph, type Message, type Reaction, type Subscription } from '../store/model';
import { Avatar } from '../people/avatar';
import { cardUser } from '../people/card';
import { dayKey, dayLabel, fullTime, messageTime } from './times';
import { RecipientBar } from './recipient-bar';
import { pollOf } from '../widgets/poll-data';
import { PollWidget } from '../widgets/poll';
import { todoOf } from '../widgets/todo-data';
import { TodoWidget } from '../widgets/todo';
import { withPending, type PendingUpdate } from '../widgets/pending';
import { MessageMenu } from './message-actions';
import type { MenuAction } from './message-menu';

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

function toggleReaction(
  message: Message,
  emoji: Pick<Reaction, 'emoji_name' | 'emoji_code' | 'reaction_type'>,
  on: boolean,
) {
  const params = { emoji_name: emoji.emoji_name, emoji_code: emoji.emoji_code, reaction_type: emoji.reaction_type };
  void client.messages.react(message.id, params, on).catch(() => undefined);
}

/** A reaction's emoji: the Unicode emoji itself, or a custom emoji's image. */
function ReactionGlyph({ reaction }: { reaction: Reaction }) {
  if (reaction.reaction_type === 'realm_emoji') {
    const custom = realmEmoji.value.find((e) => e.code === reaction.emoji_code);
    if (custom?.url)
      return <img class="emoji" src={custom.url} alt={`:${reaction.emoji_name}:`} width={18} height={18} />;
  }
  return <>{emojiGlyph(reaction)}</>;
}

/** What the list does for its rows; one object for the list's life, so that it never makes a row re-render. */
export interface RowHandlers {
  act: (m: Message, action: MenuAction) => void;
  edited: (id: number) => void;
  pick: (id: number | null) => void;
  openMenu: (id: number) => void;
  closeMenu: (id: number) => void;
  reveal: (id: number) => void;
}

export interface RowProps {
  m: Message;
  me: number;
  isAdmin: boolean;
  channels: readonly Subscription[];
  showWhere: boolean;
  searching: boolean;
  twentyFour: boolean;
  /** Today's day key: the times say the date when not today. */
  today: string;
  newDay: boolean;
  newBlock: boolean;
  continued: boolean;
  isTarget: boolean;
  isSelected: boolean;
  isFirstUnread: boolean;
  editing: boolean;
  picking: boolean;
  menuOpen: boolean;
  copiedLink: string | null;
  /** A muted sender's message, not revealed. */
  hidden: boolean;
  pending: readonly PendingUpdate[] | undefined;
  handlers: RowHandlers;
}

function RowBody(p: RowProps) {
  const { m, me, handlers } = p;
  const reactions = grouped(m.reactions ?? [], me);
  // A widget's state with this reader's votes and checks still on their way (widgets/pending.ts).
  const subs = withPending(m.submessages, p.pending);
  const poll = p.searching ? null : pollOf(m.sender_id, subs);
  const todo = p.searching ? null : todoOf(m.sender_id, subs);
  const thumbs = reactions.find((g) => g.reaction.emoji_code === THUMBS_UP.emoji_code);
  const starred = (m.flags ?? []).includes('starred');
  return (
    <>
      {p.newDay && (
        <li class="date-separator" data-day={dayKey(m.timestamp * 1000)}>
          <span>{dayLabel(m.timestamp)}</span>
        </li>
      )}
      {p.isFirstUnread && (
        <li class="unread-divider" data-first-unread={m.id}>
          New messages
        </li>
      )}
      <li
        class={`message ${p.continued ? 'continued' : ''} ${p.newBlock ? 'block-start' : ''} ${p.isTarget ? 'target' : ''} ${p.isSelected ? 'selected' : ''} ${p.menuOpen ? 'menu-open' : ''}`}
        data-id={m.id}
        aria-current={p.isSelected ? 'true' : undefined}
      >
        {p.newBlock && (
          <RecipientBar
            m={m}
            me={me}
            toMessage={p.showWhere || p.searching}
            searching={p.searching}
            dated={!p.newDay}
          />
        )}
        <div class="meta">
          {p.continued ? (
            // The name is not repeated on screen; a screen reader still hears whose message it is.
            <span class="visually-hidden sender-name">{m.sender_full_name}</span>
          ) : (
            <>
              <Avatar
                user={{ user_id: m.sender_id, full_name: m.sender_full_name, avatar_url: m.avatar_url }}
                size={24}
              />
              <button class="sender link-like" onClick={() => (cardUser.value = m.sender_id)}>
                {m.sender_full_name}
              </button>
            </>
          )}
          <time dateTime={new Date(m.timestamp * 1000).toISOString()} title={fullTime(m.timestamp, p.twentyFour)}>
            {messageTime(m.timestamp, p.twentyFour)}
          </time>
          <span class="actions">
            {!thumbs?.mine && (
              <button class="react" aria-label="React with thumbs up" onClick={() => toggleReaction(m, THUMBS_UP, true)}>
                +👍
              </button>
            )}
            <button
              class="pick-reaction"
              aria-label="Add a reaction"
              aria-expanded={p.picking}
              onClick={() => handlers.pick(p.picking ? null : m.id)}
            >
              +☺
            </button>
            <button
              class="star"
              aria-pressed={starred}
              aria-label={starred ? 'Unstar message' : 'Star message'}
              onClick={() =>
                void client.messages.flags([m.id], starred ? 'remove' : 'add', 'starred').catch(() => undefined)
              }
            >
              {starred ? '★' : '☆'}
            </button>
            <MessageMenu
              message={m}
              me={me}
              isAdmin={p.isAdmin}
              open={p.menuOpen}
              onOpen={() => handlers.openMenu(m.id)}
              onClose={() => handlers.closeMenu(m.id)}
              onAction={(action) => handlers.act(m, action)}
            />
          </span>
        </div>
        {p.editing ? (
          <MessageEditor
            message={m}
            channels={p.channels}
            moveOnly={m.sender_id !== me}
            // The editor of another message may be open by the time this one's save is answered: only this one closes.
            onDone={() => handlers.edited(m.id)}
          />
        ) : p.hidden ? (
          <p class="content muted-message">
            A message from someone you muted.{' '}
            <button class="reveal link-like" onClick={() => handlers.reveal(m.id)}>
              Show it
            </button>
          </p>
        ) : poll ? (
          <div class="content">
            <PollWidget messageId={m.id} poll={poll} me={me} />
          </div>
        ) : todo ? (
          <div class="content">
            <TodoWidget messageId={m.id} list={todo} me={me} />
          </div>
        ) : (
          <div
            class="content"
            dangerouslySetInnerHTML={{
              __html: emojify(p.searching && m.match_content !== undefined ? m.match_content : m.content),
            }}
          />
        )}
        {p.copiedLink !== null && (
          <p class="copied" role="status">
            Link copied: <input class="copied-link" aria-label="Link to message" readOnly value={p.copiedLink} />
          </p>
        )}
        {m.last_edit_timestamp !== undefined && !p.editing && <span class="edited">(edited)</span>}
        {p.picking && (
          <EmojiPicker
            label="Add a reaction"
            onClose={() => handlers.pick(null)}
            onPick={(choice) => {
              toggleReaction(m, { emoji_name: choice.name, emoji_code: choice.code, reaction_type: choice.type }, true);
              handlers.pick(null);
            }}
          />
        )}
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
                <ReactionGlyph reaction={g.reaction} /> {g.count}
              </button>
            ))}
          </div>
        )}
      </li>
    </>
  );
}

/**
 * The row, re-rendered only when one of its props changed. The body is a component of its own (as preact/compat's
 * `memo` does it): the store's signals it reads re-render the body directly, past this check.
 */
export class MessageRow extends Component<RowProps> {
  shouldComponentUpdate(next: RowProps): boolean {
    for (const key in next) if (next[key as keyof RowProps] !== this.props[key as keyof RowProps]) return true;
    return false;
  }
  render(props: RowProps) {
    return <RowBody {...props} />;
  }
}
