/** A poll message shown as Zulip's poll widget: vote and unvote, add options, and (its author) edit the question. */
import { useState } from 'preact/hooks';
import { api } from '../lib/api';
import { users } from '../store/store';
import { newOptionData, questionData, voteData, type Poll } from './poll-data';
import './widgets.css';

/** Sends one widget update; the change shows when its `submessage` event comes back. */
export function sendWidgetData(messageId: number, data: object): Promise<unknown> {
  return api.post('/submessage', { message_id: messageId, msg_type: 'widget', content: JSON.stringify(data) });
}

const names = (ids: readonly number[]) => ids.map((id) => users.value.get(id)?.full_name ?? `User ${id}`).join(', ');

export function PollWidget({ messageId, poll, me }: { messageId: number; poll: Poll; me: number }) {
  const [option, setOption] = useState('');
  const [question, setQuestion] = useState<string | null>(null);
  const [error, setError] = useState('');
  const send = (data: object | null) => {
    if (!data) return Promise.resolve(false);
    setError('');
    return sendWidgetData(messageId, data).then(
      () => true,
      (err: Error) => {
        setError(err.message);
        return false;
      },
    );
  };
  const mine = me === poll.authorId;
  return (
    <section class="poll-widget" aria-label={`Poll: ${poll.question}`}>
      {question === null ? (
        <div class="poll-head">
          <h4 class="poll-question">{poll.question || 'Poll'}</h4>
          {mine && (
            <button class="link-like poll-edit" onClick={() => setQuestion(poll.question)}>
              Edit question
            </button>
          )}
        </div>
      ) : (
        <form
          class="poll-head"
          onSubmit={(e) => {
            e.preventDefault();
            void send(questionData(poll, me, question)).then((ok) => ok && setQuestion(null));
          }}
        >
          <input
            class="poll-question-input"
            aria-label="Poll question"
            value={question}
            onInput={(e) => setQuestion(e.currentTarget.value)}
          />
          <button type="submit">Save</button>
          <button type="button" onClick={() => setQuestion(null)}>
            Cancel
          </button>
        </form>
      )}
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
                onClick={() => void send(voteData(poll, o.key, me))}
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
