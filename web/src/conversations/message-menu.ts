/**
 * What a message offers: the few most-used actions sit on its action bar (react, star); the rest in its "⋯" menu.
 * The menu's items depend on whose message it is and on the reader's role (the server decides, as for everything).
 */

export type MenuAction = 'copy-link' | 'quote' | 'edit' | 'move' | 'mark-unread' | 'delete';

export interface MenuItem {
  action: MenuAction;
  label: string;
}

/** The "⋯" menu of one message for one reader, in the order shown. */
export function menuItems(
  message: { sender_id: number; type: 'stream' | 'private' },
  me: number,
  isAdmin: boolean,
): MenuItem[] {
  const mine = message.sender_id === me;
  const items: MenuItem[] = [
    { action: 'copy-link', label: 'Copy link to message' },
    { action: 'quote', label: 'Quote and reply' },
  ];
  if (mine) items.push({ action: 'edit', label: 'Edit message' });
  else if (message.type === 'stream') items.push({ action: 'move', label: 'Move message' });
  // Zulip's "Mark as unread from here": this message and the later ones of the view (offered whether or not this one
  // is read, as later ones may be).
  items.push({ action: 'mark-unread', label: 'Mark as unread from here' });
  if (mine || isAdmin) items.push({ action: 'delete', label: 'Delete message' });
  return items;
}

/** The item the arrow keys, Home and End move to from `at` in a menu of `count` items (wrapping, as menus do). */
export function menuMove(key: string, at: number, count: number): number | null {
  if (count === 0) return null;
  if (key === 'ArrowDown') return at < 0 ? 0 : (at + 1) % count;
  if (key === 'ArrowUp') return at <= 0 ? count - 1 : at - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}
