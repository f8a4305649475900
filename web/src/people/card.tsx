/**
 * The card a click on a person's name opens: picture, name, address, role, status, presence, their local time, and
 * what one does next (send a direct message, see their messages, mute them).
 */
import { signal } from '@preact/signals';
import { useEffect, useRef } from 'preact/hooks';
import { hrefFor } from '../lib/router';
import * as client from '../lib/client';
import { emojiGlyph, presenceStatus } from '../store/model';
import { mutedUsers, settings, statuses } from '../store/personal';
import { me, presence, presenceTimes, users } from '../store/store';
import { Avatar } from './avatar';
import { localTime, roleName } from './describe';

/** The person whose card is open. */
export const cardUser = signal<number | null>(null);

export function UserCard() {
  const id = cardUser.value;
  const dialog = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (id === null) return;
    const opener = document.activeElement as HTMLElement | null;
    dialog.current?.querySelector<HTMLElement>('a, button')?.focus();
    return () => opener?.focus?.();
  }, [id]);
  if (id === null) return null;
  const user = users.value.get(id);
  if (!user) return null;
  const close = () => (cardUser.value = null);
  const status = statuses.value.get(id);
  const state = presenceStatus(presence.value.get(id), Date.now() / 1000, presenceTimes.value.offline);
  const time = localTime(user.timezone, new Date(), settings.value.twenty_four_hour_time);
  const muted = mutedUsers.value.has(id);
  const self = id === me.value;
  return (
    <div class="overlay" onClick={(e) => e.target === e.currentTarget && close()}>
      <div
        class="user-card"
        role="dialog"
        aria-modal="true"
        aria-labelledby="user-card-name"
        ref={dialog}
        data-user-id={id}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            close();
          }
        }}
      >
        <header>
          <Avatar user={user} size={64} />
          <div>
            <h2 id="user-card-name">{user.full_name}</h2>
            <p class="email">{user.email}</p>
          </div>
        </header>
        <dl>
          <dt>Role</dt>
          <dd class="role">{roleName(user)}</dd>
          <dt>Presence</dt>
          <dd class="presence-text">
            <span class={`presence ${state}`} aria-hidden="true" />
            {state === 'active' ? 'Active' : state === 'idle' ? 'Idle' : 'Offline'}
          </dd>
          {(status?.status_text || status?.emoji_name) && (
            <>
              <dt>Status</dt>
              <dd class="status-text">
                {status.emoji_code &&
                  `${emojiGlyph({ emoji_code: status.emoji_code, emoji_name: status.emoji_name ?? '', reaction_type: status.reaction_type ?? 'unicode_emoji' })} `}
                {status.status_text}
              </dd>
            </>
          )}
          {time && (
            <>
              <dt>Local time</dt>
              <dd class="local-time">{time}</dd>
            </>
          )}
        </dl>
        <div class="card-actions">
          <a
            class="button send-dm"
            href={hrefFor({ view: 'narrow', terms: [{ operator: 'dm', operand: [id] }] })}
            onClick={close}
          >
            Send a DM
          </a>
          <a
            class="button"
            href={hrefFor({ view: 'narrow', terms: [{ operator: 'sender', operand: user.email }] })}
            onClick={close}
          >
            View messages
          </a>
          {!self && (
            <button class="mute-user" onClick={() => void client.me.mute(id, !muted).catch(() => undefined)}>
              {muted ? 'Unmute' : 'Mute'}
            </button>
          )}
          <button class="close-card" onClick={close}>
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
