import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import * as client from '../lib/client';
import type { EmojiChoice } from '../emoji/emoji';
import { draftFor, narrowKey, type Draft, type Narrow, type User } from '../store/model';
import { EmojiPicker } from '../emoji/picker';
import { emojify } from '../emoji/render';
import { uploadFile, uploadLink } from './upload';
import { UploadList, type Upload } from './upload-list';
import type { Suggestion } from './autocomplete';
import { SuggestionList } from './suggestion-list';
import { LIST_LABELS, useAutocomplete } from './use-autocomplete';
import { ComposeTools } from './tools';
import { pendingQuote } from './quote';
import { composeTakes, withQuote } from './quote-text';
import { me } from '../store/store';
import { enterAction } from '../keyboard/keys';
import { settings } from '../store/personal';
import { fullTime } from '../conversations/times';
import { channelName } from '../store/store';
import { SendButton } from './send-button';
import { useGrowingField } from './grow';
import { useServerDraft } from './server-draft';
import { applyFormat, formatKey, type Format } from './format';
import './compose.css';

let uploadIds = 0;

const TYPING_REPEAT_MS = 10_000;

function typingParams(narrow: Narrow, topic: string, op: 'start' | 'stop') {
  return narrow.kind === 'stream'
    ? { type: 'stream', stream_id: narrow.streamId, topic: topic || '(no topic)', op }
    : { type: 'direct', to: narrow.userIds, op };
}

/**
 * The compose box: topic (channels), message, a server-rendered preview, typing notifications while writing, the
 * draft kept on the server as one writes (restored when the conversation is opened again, on any device), and
 * sending later (a scheduled message).
 *
 * A new message (compose/new-message.tsx) has its recipient chosen in the box itself: `recipient` is that field,
 * shown first, `narrow` is null until it names someone or a channel (`kind` says which the box is for), `missing` is
 * what sending says meanwhile, and `onSent` hears where a message went. The narrow may change while one writes: the
 * text and its draft follow it.
 */
export function Compose({
  narrow,
  kind = narrow?.kind ?? 'stream',
  drafts,
  users = [],
  emoji = [],
  recipient,
  missing = '',
  onSent,
}: {
  narrow: Narrow | null;
  kind?: Narrow['kind'];
  drafts: readonly Draft[];
  users?: readonly User[];
  emoji?: readonly EmojiChoice[];
  recipient?: ComponentChildren;
  missing?: string;
  onSent?: (where: Narrow) => void;
}) {
  const saved = narrow ? draftFor(drafts, narrow) : undefined;
  const [topic, setTopic] = useState(narrow?.kind === 'stream' ? (narrow.topic ?? saved?.topic ?? '') : '');
  const [content, setContent] = useState(saved?.content ?? '');
  const [preview, setPreview] = useState<string | null>(null);
  const [error, setError] = useState('');
  const [notice, setNotice] = useState('');
  const typingSince = useRef(0);
  const { scheduleDraft, discardDraft } = useServerDraft(narrow, saved?.id ?? null);
  const textarea = useRef<HTMLTextAreaElement>(null);
  useGrowingField(textarea, content);
  const completion = useAutocomplete(users, emoji);
  const { suggestions, completing } = completion;
  const [uploads, setUploads] = useState<Upload[]>([]);
  const [dragging, setDragging] = useState(false);
  const [picking, setPicking] = useState(false);
  const contentRef = useRef(content);
  contentRef.current = content;

  /** Puts text at the cursor (or the end), keeping the draft. */
  function insertText(text: string) {
    const el = textarea.current;
    const current = contentRef.current;
    const at = el && document.activeElement === el ? (el.selectionStart ?? current.length) : current.length;
    const before = current.slice(0, at);
    const spaced = (before && !/\s$/.test(before) ? ' ' : '') + text + ' ';
    const next = before + spaced + current.slice(at);
    contentRef.current = next;
    setContent(next);
    scheduleDraft(next, topic);
  }

  /** Uploads files one after another, each with its progress bar; each one's link goes into the message. */
  async function upload(files: readonly File[]) {
    for (const file of files) {
      const id = ++uploadIds;
      setUploads((list) => [...list, { id, name: file.name, progress: 0 }]);
      try {
        const done = await uploadFile(file, (progress) =>
          setUploads((list) => list.map((u) => (u.id === id ? { ...u, progress } : u))),
        );
        insertText(uploadLink(done));
        setUploads((list) => list.filter((u) => u.id !== id));
      } catch (err) {
        const text = err instanceof Error ? err.message : String(err);
        setUploads((list) => list.map((u) => (u.id === id ? { ...u, error: text } : u)));
      }
    }
  }
  /** Replaces what is being completed (a mention, emoji, channel, topic or command) with the chosen suggestion. */
  function complete(suggestion: Suggestion) {
    const el = textarea.current;
    const done = completion.apply(content, el?.selectionStart ?? content.length, suggestion);
    if (!done) return;
    contentRef.current = done.text;
    setContent(done.text);
    scheduleDraft(done.text, topic);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(done.cursor, done.cursor);
    });
  }

  // A quote for this box's conversation ("Quote and reply"): on a line of its own, the topic its message's, focused
  // at the end.
  const quote = pendingQuote.value;
  useEffect(() => {
    if (!quote || !narrow || !composeTakes(narrow, quote.target, me.value)) return;
    pendingQuote.value = null;
    const topicName = quote.target.kind === 'stream' && quote.target.topic !== undefined ? quote.target.topic : topic;
    if (topicName !== topic) setTopic(topicName);
    const next = withQuote(contentRef.current, quote.text);
    contentRef.current = next;
    setContent(next);
    setPreview(null);
    scheduleDraft(next, topicName);
    requestAnimationFrame(() => {
      const el = textarea.current;
      el?.focus();
      el?.setSelectionRange(next.length, next.length);
    });
  }, [quote?.seq, narrow && narrowKey(narrow, 0)]);

  function stopTyping() {
    if (typingSince.current === 0 || !narrow) return;
    typingSince.current = 0;
    void client.messages.typing(typingParams(narrow, topic, 'stop')).catch(() => undefined);
  }
  useEffect(() => stopTyping, [narrow && narrowKey(narrow, 0)]);

  function onInput(value: string) {
    setContent(value);
    setPreview(null);
    scheduleDraft(value, topic);
    if (!value) return stopTyping();
    if (narrow && Date.now() - typingSince.current > TYPING_REPEAT_MS) {
      typingSince.current = Date.now();
      void client.messages.typing(typingParams(narrow, topic, 'start')).catch(() => undefined);
    }
  }

  /** A formatting button or shortcut: its Markdown around the selection, the field focused with its new selection. */
  function format(kind: Format) {
    const el = textarea.current;
    if (!el) return;
    const edit = applyFormat(el.value, el.selectionStart, el.selectionEnd, kind);
    el.value = edit.text;
    el.focus();
    el.setSelectionRange(edit.start, edit.end);
    onInput(edit.text);
  }

  async function showPreview() {
    if (!content.trim()) return;
    try {
      const answer = await client.messages.render(content);
      setPreview(answer.rendered);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  /** Sends the message, or schedules it for `later` (a moment in ms); true when the server took it. */
  async function send(event: Event | null, later?: number): Promise<boolean> {
    event?.preventDefault();
    if (!content.trim()) return false;
    setError('');
    setNotice('');
    if (!narrow) {
      setError(missing || 'Choose where to send it');
      return false;
    }
    const message =
      narrow.kind === 'stream'
        ? { type: 'stream', to: narrow.streamId, topic: topic || '(no topic)', content }
        : { type: 'direct', to: narrow.userIds, content };
    try {
      if (later !== undefined) {
        if (Number.isNaN(later)) throw new Error('Choose when to send it');
        const at = Math.floor(later / 1000);
        await client.scheduledMessages.create({ ...message, scheduled_delivery_timestamp: at });
        setNotice(`Scheduled for ${fullTime(at, !!settings.value.twenty_four_hour_time)}`);
      } else {
        await client.messages.send(message);
      }
      // Cleared as soon as the server took it: the message itself may be on screen already (its event can come
      // before this answer), and the draft's deletion is one more request.
      setContent('');
      setPreview(null);
      stopTyping();
      await discardDraft();
      if (later === undefined)
        onSent?.(narrow.kind === 'stream' ? { ...narrow, topic: topic || '(no topic)' } : narrow);
      return true;
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      return false;
    }
  }

  return (
    <form
      class={`compose ${dragging ? 'dragging' : ''}`}
      onSubmit={(e) => void send(e)}
      onDragOver={(e) => {
        if (!e.dataTransfer?.types.includes('Files')) return;
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        const files = [...(e.dataTransfer?.files ?? [])];
        setDragging(false);
        if (files.length === 0) return;
        e.preventDefault();
        void upload(files);
      }}
    >
      {(recipient || kind === 'stream') && (
        // Where it goes, on one line: the channel (picked, or the conversation's) and the topic beside it.
        <div class="compose-head">
          {recipient ??
            (narrow?.kind === 'stream' && (
              <span class="compose-channel">#{channelName(narrow.streamId) ?? narrow.streamId}</span>
            ))}
          {kind === 'stream' && (
            <>
              <span class="compose-sep" aria-hidden="true">
                ›
              </span>
              <input
                id="compose-topic"
                aria-label="Topic"
                placeholder="Topic"
                value={topic}
                onInput={(e) => {
                  setTopic(e.currentTarget.value);
                  if (content.trim()) scheduleDraft(content, e.currentTarget.value);
                }}
              />
            </>
          )}
        </div>
      )}
      {preview !== null && (
        <div
          id="compose-preview"
          class="content preview"
          aria-label="Preview"
          dangerouslySetInnerHTML={{ __html: emojify(preview) }}
        />
      )}
      <textarea
        id="compose-content"
        aria-label="Message"
        placeholder="Message"
        value={content}
        ref={textarea}
        rows={1}
        role="combobox"
        aria-expanded={suggestions.length > 0}
        aria-controls="compose-mentions"
        aria-autocomplete="list"
        aria-activedescendant={suggestions.length > 0 ? `compose-mentions-${completion.selected}` : undefined}
        onInput={(e) => {
          const el = e.currentTarget;
          onInput(el.value);
          completion.onTyped(el);
        }}
        onBlur={stopTyping}
        onPaste={(e) => {
          const files = [...(e.clipboardData?.files ?? [])];
          if (files.length === 0) return;
          e.preventDefault();
          void upload(files);
        }}
        onKeyDown={(e) => {
          if (completion.onKeyDown(e, complete)) return;
          const formatting = formatKey(e);
          if (formatting) {
            e.preventDefault();
            return format(formatting);
          }
          // Enter or Ctrl+Enter sends, by the user's enter_sends setting; the other one is a new line.
          const action = enterAction(e, !!settings.value.enter_sends);
          if (action === 'send') void send(e);
          else if (action === 'newline') {
            e.preventDefault();
            const el = e.currentTarget;
            el.setRangeText('\n', el.selectionStart, el.selectionEnd, 'end');
            onInput(el.value);
          }
        }}
      />
      {suggestions.length > 0 && completing && (
        <SuggestionList
          suggestions={suggestions}
          selected={completion.selected}
          label={LIST_LABELS[completing.kind]}
          onPick={complete}
        />
      )}
      <UploadList uploads={uploads} onDismiss={(id) => setUploads((l) => l.filter((x) => x.id !== id))} />
      {picking && (
        <EmojiPicker
          onPick={(choice) => {
            insertText(`:${choice.name}:`);
            setPicking(false);
          }}
          onClose={() => setPicking(false)}
        />
      )}
      <div class="compose-bar">
        <ComposeTools
          picking={picking}
          onTogglePicker={() => setPicking(!picking)}
          onFiles={(files) => void upload(files)}
          onPreview={() => void showPreview()}
          onFormat={format}
        />
        <SendButton onSchedule={(at) => send(null, at)} />
      </div>
      {notice && (
        <p role="status" class="notice">
          {notice}
        </p>
      )}
      {error && (
        <p role="alert" class="error">
          {error}
        </p>
      )}
    </form>
  );
}
