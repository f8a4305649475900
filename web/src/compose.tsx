import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api';
import type { Narrow } from './state';

const TYPING_REPEAT_MS = 10_000;

function typingParams(narrow: Narrow, topic: string, op: 'start' | 'stop') {
  return narrow.kind === 'stream'
    ? { type: 'stream', stream_id: narrow.streamId, topic: topic || '(no topic)', op }
    : { type: 'direct', to: narrow.userIds, op };
}

/** The compose box: topic (channels), message, a server-rendered preview, typing notifications while writing. */
export function Compose({ narrow }: { narrow: Narrow }) {
  const [topic, setTopic] = useState(narrow.kind === 'stream' ? (narrow.topic ?? '') : '');
  const [content, setContent] = useState('');
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState('');
  const typingSince = useRef(0);

  function stopTyping() {
    if (typingSince.current === 0) return;
    typingSince.current = 0;
    void api.post('/typing', typingParams(narrow, topic, 'stop')).catch(() => undefined);
  }
  useEffect(() => stopTyping, [narrow]);

  function onInput(value: string) {
    setContent(value);
    setPreview(null);
    if (!value) return stopTyping();
    if (Date.now() - typingSince.current > TYPING_REPEAT_MS) {
      typingSince.current = Date.now();
      void api.post('/typing', typingParams(narrow, topic, 'start')).catch(() => undefined);
    }
  }

  async function showPreview() {
    if (!content.trim()) return;
    try {
      const answer = await api.post<{ rendered: string }>('/messages/render', { content });
      setPreview(answer.rendered);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  async function send(event: Event) {
    event.preventDefault();
    if (!content.trim()) return;
    setError('');
    try {
      await api.post(
        '/messages',
        narrow.kind === 'stream'
          ? { type: 'stream', to: narrow.streamId, topic: topic || '(no topic)', content }
          : { type: 'direct', to: narrow.userIds, content },
      );
      stopTyping();
      setContent('');
      setPreview(null);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  return (
    <form class="compose" onSubmit={(e) => void send(e)}>
      {narrow.kind === 'stream' && (
        <input
          id="compose-topic"
          aria-label="Topic"
          placeholder="Topic"
          value={topic}
          onInput={(e) => setTopic(e.currentTarget.value)}
        />
      )}
      {preview !== null && (
        <div
          id="compose-preview"
          class="content preview"
          aria-label="Preview"
          dangerouslySetInnerHTML={{ __html: preview }}
        />
      )}
      <textarea
        id="compose-content"
        aria-label="Message"
        placeholder="Message"
        value={content}
        onInput={(e) => onInput(e.currentTarget.value)}
        onBlur={stopTyping}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) void send(e);
        }}
      />
      <div class="buttons">
        <button id="compose-preview-button" type="button" onClick={() => void showPreview()}>
          Preview
        </button>
        <button id="compose-send" type="submit">
          Send
        </button>
      </div>
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </form>
  );
}
