import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../lib/api';
import * as client from '../lib/client';
import type { Message, Subscription } from '../store/model';
import { enterAction } from '../keyboard/keys';
import { settings } from '../store/personal';

/**
 * Editing one's own message in place: its Markdown source (fetched raw), and for channel messages its topic; saving
 * is PATCH /messages/{id}, which applies the organization's rules (the server's error is shown as it is).
 */
export function MessageEditor({
  message,
  channels,
  moveOnly,
  onDone,
}: {
  message: Message;
  channels: readonly Subscription[];
  /** Someone else's message: only its topic and channel can change (if the organization lets one move it). */
  moveOnly: boolean;
  onDone: () => void;
}) {
  const [content, setContent] = useState<string | null>(null);
  const [original, setOriginal] = useState<string | null>(null);
  const [topic, setTopic] = useState(message.subject);
  const [channel, setChannel] = useState(message.stream_id ?? 0);
  const [mode, setMode] = useState<'change_one' | 'change_later' | 'change_all'>('change_one');
  const [error, setError] = useState('');
  useEffect(() => {
    if (moveOnly) return;
    void client.messages
      .getOne(message.id, { apply_markdown: false })
      .then((answer) => {
        setContent(answer.message.content);
        setOriginal(answer.message.content);
      })
      .catch((e: unknown) => setError(e instanceof ApiError ? e.message : 'Could not load the message'));
  }, [message.id]);
  const save = async () => {
    const params: Record<string, string | number> = {};
    const moving = message.type === 'stream' && channel !== message.stream_id;
    // Zulip moves a message or changes its text, not both at once: a move keeps the text.
    if (content !== null && content !== original) {
      if (moving) return setError('Move the message first, then edit its text.');
      params.content = content;
    }
    if (moving) params.stream_id = channel;
    if (message.type === 'stream' && topic.trim() !== message.subject) params.topic = topic.trim();
    if (params.topic !== undefined || params.stream_id !== undefined) params.propagate_mode = mode;
    if (Object.keys(params).length === 0) return onDone();
    try {
      await client.messages.edit(message.id, params);
      onDone();
    } catch (e) {
      setError(e instanceof ApiError ? e.message : 'Could not save');
    }
  };
  return (
    <form
      class="editor"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {message.type === 'stream' && (
        <select
          class="edit-channel"
          aria-label="Channel"
          value={String(channel)}
          onChange={(e) => setChannel(Number(e.currentTarget.value))}
        >
          {channels.map((c) => (
            <option key={c.stream_id} value={String(c.stream_id)}>
              {c.name}
            </option>
          ))}
        </select>
      )}
      {message.type === 'stream' && (
        <input class="edit-topic" aria-label="Topic" value={topic} onInput={(e) => setTopic(e.currentTarget.value)} />
      )}
      {message.type === 'stream' && (
        <select
          class="edit-propagate"
          aria-label="Which messages to move"
          value={mode}
          onChange={(e) => setMode(e.currentTarget.value as typeof mode)}
        >
          <option value="change_one">Move only this message</option>
          <option value="change_later">Move this and all following messages in this topic</option>
          <option value="change_all">Move all messages in this topic</option>
        </select>
      )}
      {!moveOnly && (
        <textarea
          class="edit-content"
          aria-label="Message"
          value={content ?? ''}
          disabled={content === null}
          onInput={(e) => setContent(e.currentTarget.value)}
          // As in compose: Enter or Ctrl+Enter saves by the user's enter_sends setting, the other a new line.
          onKeyDown={(e) => {
            const action = enterAction(e, !!settings.value.enter_sends);
            if (action === null) return;
            e.preventDefault();
            if (action === 'send') void save();
            else {
              const el = e.currentTarget;
              el.setRangeText('\n', el.selectionStart, el.selectionEnd, 'end');
              setContent(el.value);
            }
          }}
        />
      )}
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="edit-save" title={settings.value.enter_sends ? 'Save (Enter)' : 'Save (Ctrl+Enter)'}>
        Save
      </button>
      <button type="button" class="edit-cancel" onClick={onDone}>
        Cancel
      </button>
    </form>
  );
}
