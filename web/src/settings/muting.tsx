/** Muted people (unmute; muting is on a person's card) and alert words (POST/DELETE /users/me/alert_words). */
import { useState } from 'preact/hooks';
import * as client from '../lib/client';
import { alertWords, mutedUsers } from '../store/personal';
import { userName } from '../store/store';
import { errorText, Outcome } from '../ui/outcome';

export function MutedUsers() {
  const [error, setError] = useState('');
  const muted = [...mutedUsers.value];
  return (
    <section aria-labelledby="muted-heading">
      <h2 id="muted-heading">Muted people</h2>
      {muted.length === 0 ? (
        <p>Nobody is muted. Mute someone from their card (click their name).</p>
      ) : (
        <ul class="muted-users">
          {muted.map((id) => (
            <li key={id} data-muted-user={id}>
              <span>{userName(id) ?? `user ${id}`}</span>
              <button
                class="unmute-user"
                aria-label={`Unmute ${userName(id) ?? `user ${id}`}`}
                onClick={() => void client.me.mute(id, false).catch((e: unknown) => setError(errorText(e)))}
              >
                Unmute
              </button>
            </li>
          ))}
        </ul>
      )}
      <Outcome error={error} />
    </section>
  );
}

export function AlertWords() {
  const [word, setWord] = useState('');
  const [error, setError] = useState('');
  const run = (call: Promise<unknown>) => {
    setError('');
    return call.catch((e: unknown) => setError(errorText(e)));
  };
  return (
    <section aria-labelledby="alert-words-heading">
      <h2 id="alert-words-heading">Alert words</h2>
      <p>A message containing one of these words notifies you as a mention does.</p>
      <ul class="alert-words">
        {alertWords.value.map((w) => (
          <li key={w} data-alert-word={w}>
            <span>{w}</span>
            <button
              class="remove-alert-word"
              aria-label={`Remove alert word ${w}`}
              onClick={() => void run(client.me.removeAlertWord(w))}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (!word.trim()) return;
          void run(client.me.addAlertWord(word.trim())).then(() => setWord(''));
        }}
      >
        <label for="alert-word">New alert word</label>
        <input id="alert-word" value={word} onInput={(e) => setWord(e.currentTarget.value)} />
        <button id="alert-word-add" type="submit">
          Add
        </button>
      </form>
      <Outcome error={error} />
    </section>
  );
}
