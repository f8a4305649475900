/**
 * One's profile picture: upload (POST /json/users/me/avatar, one image file) or go back to the default
 * (DELETE /json/users/me/avatar). The picture shown comes from the store, which the `realm_user` event updates in
 * every window of the user and for everyone else.
 */
import * as client from '../lib/client';
import { Avatar } from '../people/avatar';
import type { User } from '../store/model';
import { Outcome, useAction } from '../ui/outcome';

export function AvatarSettings({ me }: { me: Pick<User, 'user_id' | 'full_name' | 'avatar_url'> }) {
  const { ok, error, busy, run } = useAction();
  function upload(input: HTMLInputElement) {
    const file = input.files?.[0];
    if (!file) return;
    const form = new FormData();
    form.append('file', file, file.name);
    input.value = '';
    void run(() => client.me.uploadAvatar(form), 'Picture uploaded');
  }
  const uploaded = !!me.avatar_url?.startsWith('/');
  return (
    <section aria-labelledby="avatar-heading" class="avatar-settings">
      <h2 id="avatar-heading">Profile picture</h2>
      <Avatar user={me} size={100} />
      <label for="settings-avatar-file">Upload a new picture (PNG, GIF, JPEG or WebP, at most 5 MiB)</label>
      <input
        id="settings-avatar-file"
        type="file"
        accept="image/png,image/gif,image/jpeg,image/webp"
        disabled={busy}
        onChange={(e) => upload(e.currentTarget)}
      />
      {uploaded && (
        <button
          id="settings-avatar-delete"
          disabled={busy}
          onClick={() => void run(() => client.me.deleteAvatar(), 'Picture removed')}
        >
          Remove picture
        </button>
      )}
      <Outcome ok={ok} error={error} />
    </section>
  );
}
