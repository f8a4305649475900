/** A poll message shown as Zulip's poll widget: vote and unvote, add options, and (its author) edit the question. */
import { useState } from 'preact/hooks';
import { users } from '../store/store';
import { newOptionData, questionData, voteData, type Poll } from './poll-data';
import { EditableHeading, useWidgetSender } from './widget-parts';
import './widgets.css';

const names = (ids: readonly number[]) => ids.map((id) => users.value.get(id)?.full_name ?? `User ${id}`).join(', ');

export function PollWidget({ messageId, poll, me }: { messageId: number; poll: Poll; me: number }) {
  const [option, setOption] = useState('');
  const { send, error } = useWidgetSender(messageId);
  const mine = me === poll.authorId;
  return (
    <section class="poll-widget" aria-label={`Poll: ${poll.question}`}>
      <EditableHeading
        text={poll.question || 'Poll'}
        kind="poll-question"
        canEdit={mine}
        labels={{ edit: 'Edit question', input: 'Poll question' }}
        save={(value) => send(questionData(poll, me, value))}
      />
      <ul class="poll-options">
        {poll.options.map((o) => {
          const voted = o.voters.includes(me);
          const who = names(o.voters);
          return (
            <li key={o.key} class="poll-option" data-option={o.option}>
              <button
                class={voted ? 'poll-vote voted' : 'poll-vote'}
                aria-pressed={voted}
                aria-label={`${o.option}: ${o.voters.length} ${o.voters.length === 1 ? 'vote' : 'votes'}`}
                title={who ? `Voted: ${who}` : 'No votes yet'}
                onClick={() => void send(voteData(poll, o.key, me), { optimistic: true })}
              >
                {o.voters.length}
              </button>
              <span class="poll-option-text">{o.option}</span>
              {who && <span class="poll-voters">({who})</span>}
            </li>
          );
        })}
      </ul>
      <form
        class="poll-add"
        onSubmit={(e) => {
          e.preventDefault();
          void send(newOptionData(poll, me, option)).then((ok) => ok && setOption(''));
        }}
      >
        <input
          class="poll-option-input"
          aria-label="New poll option"
          placeholder="New option"
          value={option}
          onInput={(e) => setOption(e.currentTarget.value)}
        />
        <button type="submit" disabled={!option.trim()}>
          Add option
        </button>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
