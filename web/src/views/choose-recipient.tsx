/** The Drafts view's recipient chooser, for a draft saved without one. */
import { useState } from 'preact/hooks';
import * as client from '../lib/client';
import type { Draft } from '../store/model';
import { me, subscriptions, users } from '../store/store';

/**
 * A draft saved without a recipient gets one here: a channel (and a topic) or a person; the draft is saved with it
 * (PATCH /drafts/{id}), after which it is listed as a link to its conversation, where compose restores it.
 */
export function ChooseRecipient({ draft }: { draft: Draft }) {
  const [to, setTo] = useState('');
  const [topic, setTopic] = useState('');
  const [error, setError] = useState('');
  const self = me.value;
  const channels = subscriptions.value.filter((s) => !s.is_archived);
  const people = [...users.value.values()]
    .filter((u) => u.user_id !== self && u.is_active !== false && !u.is_bot)
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
  const [kind, id] = to.split(':');
  const save = () => {
    if (!to) return setError('Choose a channel or a person');
    const recipient =
      kind === 's'
        ? { type: 'stream', to: [Number(id)], topic: topic.trim() }
        : { type: 'private', to: [Number(id)], topic: '' };
    setError('');
    void client.drafts
      .edit(draft.id, { ...recipient, content: draft.content, timestamp: draft.timestamp })
      .catch((err: unknown) => setError(err instanceof Error ? err.message : String(err)));
  };
  const field = `draft-to-${draft.id}`;
  return (
    <span class="choose-recipient">
      <span class="no-recipient">No recipient</span>
      <label for={field} class="visually-hidden">
        Send to
      </label>
      <select id={field} value={to} onChange={(e) => setTo(e.currentTarget.value)}>
        <option value="">Choose a recipient…</option>
        <optgroup label="Channels">
          {channels.map((c) => (
            <option key={c.stream_id} value={`s:${c.stream_id}`}>
              #{c.name}
            </option>
          ))}
        </optgroup>
        <optgroup label="Direct message">
          {people.map((u) => (
            <option key={u.user_id} value={`d:${u.user_id}`}>
              {u.full_name}
            </option>
          ))}
        </optgroup>
      </select>
      {kind === 's' && (
        <>
          <label for={`${field}-topic`} class="visually-hidden">
            Topic
          </label>
          <input
            id={`${field}-topic`}
            placeholder="Topic"
            value={topic}
            onInput={(e) => setTopic(e.currentTarget.value)}
          />
        </>
      )}
      <button type="button" class="save-recipient" onClick={save}>
        Save recipient
      </button>
      {error && (
        <span class="error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
