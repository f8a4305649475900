/**
 * One's status, as Zulip's "Set status": an emoji and a text (POST /users/me/status with `status_text`,
 * `emoji_name`, `emoji_code`, `reaction_type`), Zulip's presets as quick choices, and "Clear status". What is shown
 * is the store's `statuses`, which /register's `user_status` fills and `user_status` events change, so a status set
 * in another browser (or by someone else, beside their name) shows at once.
 */
import { useEffect, useState } from 'preact/hooks';
import type { EmojiChoice } from '../emoji/emoji';
import { EmojiPicker } from '../emoji/picker';
import * as client from '../lib/client';
import { emojiGlyph } from '../store/model';
import { statuses } from '../store/personal';
import { shownStatus, STATUS_PRESETS, statusParams, MAX_STATUS_TEXT, type StatusEmojiInfo } from './status-data';
import { emoji as allEmoji, me } from '../store/store';
import { errorText, Outcome } from '../ui/outcome';
import './status.css';

/** An emoji of a status: the Unicode glyph, a custom emoji's image, else its name. */
export function EmojiOf({ emoji, label }: { emoji: StatusEmojiInfo; label?: string }) {
  if (emoji.reaction_type === 'realm_emoji') {
    const url = allEmoji.value.find((e) => e.type === 'realm_emoji' && e.code === emoji.emoji_code)?.url;
    if (url) return <img class="emoji status-emoji-image" src={url} alt={label ?? `:${emoji.emoji_name}:`} />;
  }
  return (
    <span role="img" aria-label={label ?? emoji.emoji_name.replace(/_/g, ' ')}>
      {emojiGlyph(emoji)}
    </span>
  );
}

/**
 * A person's status beside their name (the sidebar, the People list): the emoji, with the text as its tooltip, or
 * the text when there is no emoji. Nothing without a status.
 */
export function StatusBadge({ userId, withText = false }: { userId: number; withText?: boolean }) {
  const shown = shownStatus(statuses.value.get(userId));
  if (!shown) return null;
  return (
    <span class="user-status" title={shown.text || undefined} data-status-text={shown.text}>
      {/* With the text beside it, the emoji is named by itself, so the text is not read twice. */}
      {shown.emoji && <EmojiOf emoji={shown.emoji} label={withText ? undefined : shown.text || undefined} />}
      {(withText || !shown.emoji) && shown.text && <span class="user-status-text">{shown.text}</span>}
    </span>
  );
}

/** The settings page's "Status" section: the current status, a form to set one, the presets, and "Clear status". */
export function StatusSettings() {
  const current = shownStatus(statuses.value.get(me.value));
  const [text, setText] = useState(current?.text ?? '');
  const [emoji, setEmoji] = useState<StatusEmojiInfo | null>(current?.emoji ?? null);
  const [picking, setPicking] = useState(false);
  const [ok, setOk] = useState('');
  const [error, setError] = useState('');
  // Another window's change shows here too.
  const currentKey = JSON.stringify(current);
  useEffect(() => {
    setText(current?.text ?? '');
    setEmoji(current?.emoji ?? null);
  }, [currentKey]);

  async function save(nextText: string, nextEmoji: StatusEmojiInfo | null, done: string) {
    setOk('');
    setError('');
    try {
      await client.me.status(statusParams(nextText, nextEmoji));
      setOk(done);
    } catch (e) {
      setError(errorText(e));
    }
  }
  const pick = (choice: EmojiChoice) => {
    setEmoji({ emoji_name: choice.name, emoji_code: choice.code, reaction_type: choice.type });
    setPicking(false);
  };
  return (
    <section aria-labelledby="status-heading" class="status-settings">
      <h2 id="status-heading">Status</h2>
      <p id="status-current">
        {current ? (
          <>
            Your status: {current.emoji && <EmojiOf emoji={current.emoji} />} {current.text}
          </>
        ) : (
          'No status set.'
        )}
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save(text, emoji, 'Status saved');
        }}
      >
        <button
          type="button"
          id="status-emoji"
          class="status-emoji-button"
          aria-label={
            emoji ? `Status emoji: ${emoji.emoji_name.replace(/_/g, ' ')}. Change it` : 'Choose a status emoji'
          }
          aria-expanded={picking}
          onClick={() => setPicking(!picking)}
        >
          <span aria-hidden="true">{emoji ? emojiGlyph(emoji) : '🙂'}</span>
        </button>
        <label for="status-text" class="visually-hidden">
          Status text
        </label>
        <input
          id="status-text"
          placeholder="What’s your status?"
          maxLength={MAX_STATUS_TEXT}
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
        />
        <button id="status-save" type="submit">
          Save status
        </button>
        <button
          id="status-clear"
          type="button"
          disabled={!current && !text && !emoji}
          onClick={() => {
            setText('');
            setEmoji(null);
            if (current) void save('', null, 'Status cleared');
          }}
        >
          Clear status
        </button>
      </form>
      {picking && <EmojiPicker label="Choose a status emoji" onPick={pick} onClose={() => setPicking(false)} />}
      <ul class="status-presets" aria-label="Suggested statuses">
        {STATUS_PRESETS.map((preset) => (
          <li key={preset.text}>
            <button
              type="button"
              class="status-preset"
              data-preset={preset.text}
              onClick={() => {
                setText(preset.text);
                setEmoji(preset.emoji);
                void save(preset.text, preset.emoji, 'Status saved');
              }}
            >
              <span aria-hidden="true">{emojiGlyph(preset.emoji)}</span> {preset.text}
            </button>
          </li>
        ))}
      </ul>
      <Outcome ok={ok} error={error} />
    </section>
  );
}
