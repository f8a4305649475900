/**
 * Notification and display settings (PATCH /settings, one setting at a time). What is shown is the store's
 * `settings`, which the server's user_settings event changes: a change made in another browser shows here too.
 */
import { useState } from 'preact/hooks';
import { api } from '../lib/api';
import { askPermission, permission } from '../notifications/permission';
import { playSound } from '../notifications/sound';
import { setSettingLocally, settings } from '../store/personal';
import { errorText, Outcome } from '../ui/outcome';

function useSave() {
  const [error, setError] = useState('');
  // Shown at once (the server's event confirms it); put back if the server refuses.
  const save = (name: string, value: boolean | number | string) => {
    setError('');
    const change = setSettingLocally(name, value);
    void api.patch('/settings', { [name]: value }).catch((e: unknown) => {
      change.undo();
      setError(errorText(e));
    });
  };
  return { error, save };
}

function Toggle({ name, label, save }: { name: string; label: string; save: (name: string, value: boolean) => void }) {
  return (
    <label class="check">
      <input
        type="checkbox"
        name={name}
        checked={!!settings.value[name]}
        onChange={(e) => save(name, e.currentTarget.checked)}
      />
      {label}
    </label>
  );
}

const PERMISSION_TEXT = {
  granted: 'This browser shows Confab’s notifications.',
  denied: 'This browser blocks Confab’s notifications (change it in the browser’s site settings).',
  default: 'This browser has not been asked yet.',
  unsupported: 'This browser cannot show notifications.',
};

export function NotificationSettings() {
  const { error, save } = useSave();
  return (
    <section aria-labelledby="notifications-heading">
      <h2 id="notifications-heading">Notifications</h2>
      <p id="notification-permission">
        {PERMISSION_TEXT[permission.value]}{' '}
        {permission.value === 'default' && (
          <button type="button" onClick={() => void askPermission()}>
            Allow notifications
          </button>
        )}
      </p>
      <fieldset>
        <legend>Direct messages and mentions</legend>
        <Toggle name="enable_desktop_notifications" label="Desktop notifications" save={save} />
        <Toggle name="enable_sounds" label="Sound" save={save} />
        <Toggle name="wildcard_mentions_notify" label="Notify for @all and @topic mentions" save={save} />
      </fieldset>
      <fieldset>
        <legend>Followed topics</legend>
        <Toggle name="enable_followed_topic_desktop_notifications" label="Desktop notifications" save={save} />
        <Toggle name="enable_followed_topic_audible_notifications" label="Sound" save={save} />
      </fieldset>
      <fieldset>
        <legend>Channels</legend>
        <Toggle name="enable_stream_desktop_notifications" label="Desktop notifications" save={save} />
        <Toggle name="enable_stream_audible_notifications" label="Sound" save={save} />
      </fieldset>
      <div class="check">
        <label for="setting-count">Unread count in the tab title</label>
        <select
          id="setting-count"
          value={String(settings.value.desktop_icon_count_display)}
          onChange={(e) => save('desktop_icon_count_display', Number(e.currentTarget.value))}
        >
          <option value="1">All unread messages</option>
          <option value="2">Direct messages, mentions and followed topics</option>
          <option value="3">Direct messages and mentions</option>
          <option value="4">None</option>
        </select>
        <button type="button" onClick={playSound}>
          Play the sound
        </button>
      </div>
      <Outcome error={error} />
    </section>
  );
}

export function DisplaySettings() {
  const { error, save } = useSave();
  return (
    <section aria-labelledby="display-heading">
      <h2 id="display-heading">Display</h2>
      <fieldset>
        <legend>Theme</legend>
        {(
          [
            [1, 'Automatic (as the system)'],
            [3, 'Light'],
            [2, 'Dark'],
          ] as const
        ).map(([value, label]) => (
          <label key={value} class="check">
            <input
              type="radio"
              name="color_scheme"
              value={String(value)}
              checked={settings.value.color_scheme === value}
              onChange={() => save('color_scheme', value)}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <Toggle name="twenty_four_hour_time" label="24-hour time" save={save} />
      <Outcome error={error} />
    </section>
  );
}
