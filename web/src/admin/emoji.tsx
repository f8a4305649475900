/**
 * Custom emoji (GET /realm/emoji through /register and `realm_emoji` events; POST /realm/emoji/{name} with one image;
 * DELETE /realm/emoji/{name}): the organization's own emoji, which everyone can use in messages and reactions.
 */
import { useRef, useState } from 'preact/hooks';
import * as client from '../lib/client';
import { realmEmoji } from '../store/store';
import { Field } from '../ui/field';
import { Outcome, useAction } from '../ui/outcome';

export function CustomEmoji() {
  const { ok, error, busy, run } = useAction();
  const [name, setName] = useState('');
  const file = useRef<HTMLInputElement>(null);
  const emoji = [...realmEmoji.value].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section aria-labelledby="admin-emoji-heading" class="admin-emoji">
      <h2 id="admin-emoji-heading">Custom emoji</h2>
      <ul>
        {emoji.map((e) => (
          <li key={e.code} data-custom-emoji={e.name}>
            {e.url && <img src={e.url} alt="" width={20} height={20} />}
            <code>:{e.name}:</code>
            <button
              class="admin-emoji-remove"
              aria-label={`Remove the emoji :${e.name}:`}
              onClick={() => void run(() => client.organization.emoji.remove(e.name), `:${e.name}: removed`)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          const chosen = file.current?.files?.[0];
          const emojiName = name.trim();
          const form = new FormData();
          if (chosen) form.append('file', chosen);
          void run(() => client.organization.emoji.upload(emojiName, form), `:${emojiName}: added`).then((done) => {
            if (!done) return;
            setName('');
            if (file.current) file.current.value = '';
          });
        }}
      >
        <h3>Add an emoji</h3>
        <Field id="admin-emoji-name" label="Name" value={name} onValue={setName} />
        <label for="admin-emoji-file">Image</label>
        <input id="admin-emoji-file" type="file" accept="image/png,image/gif,image/jpeg,image/webp" ref={file} />
        <button id="admin-emoji-add" type="submit" disabled={busy}>
          Add emoji
        </button>
      </form>
      <Outcome ok={ok} error={error} />
    </section>
  );
}
