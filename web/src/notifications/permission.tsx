/**
 * Asking for the browser's permission to show notifications, at the moment it makes sense: once signed in, while the
 * user's settings want desktop notifications and the browser has not been asked yet, a banner offers it (browsers
 * only ask after a click). "Not now" hides it for this browser.
 */
import { signal } from '@preact/signals';
import { settings } from '../store/personal';

const DISMISSED = 'confab.notifications.dismissed';
const supported = () => typeof window !== 'undefined' && 'Notification' in window;

/** The browser's answer so far ('unsupported' without the Notification API). */
export const permission = signal<NotificationPermission | 'unsupported'>(
  supported() ? Notification.permission : 'unsupported',
);
const dismissed = signal(typeof localStorage !== 'undefined' && localStorage.getItem(DISMISSED) === '1');

export async function askPermission(): Promise<void> {
  if (!supported()) return;
  permission.value = await Notification.requestPermission();
}

export function PermissionBanner() {
  if (permission.value !== 'default' || dismissed.value) return null;
  const s = settings.value;
  if (!s.enable_desktop_notifications && !s.enable_followed_topic_desktop_notifications) return null;
  return (
    <aside class="permission-banner" aria-label="Desktop notifications">
      <span>Confab can tell you about direct messages and mentions while you are elsewhere.</span>
      <button id="notifications-enable" onClick={() => void askPermission()}>
        Enable desktop notifications
      </button>
      <button
        id="notifications-not-now"
        onClick={() => {
          localStorage.setItem(DISMISSED, '1');
          dismissed.value = true;
        }}
      >
        Not now
      </button>
    </aside>
  );
}
