/**
 * A message's action bar, shown on hover and keyboard focus: react, star, and a "⋯" menu button for the rest (a
 * real menu: aria-haspopup, arrow keys, Home/End, Escape closes it and gives focus back to its button).
 */
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';
import { menuItems, menuMove, type MenuAction } from './message-menu';
import './message-actions.css';

export function MessageMenu({
  message,
  me,
  isAdmin,
  open,
  onOpen,
  onClose,
  onAction,
}: {
  message: { id: number; sender_id: number; type: 'stream' | 'private' };
  me: number;
  isAdmin: boolean;
  open: boolean;
  onOpen: () => void;
  onClose: () => void;
  onAction: (action: MenuAction) => void;
}) {
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const items = menuItems(message, me, isAdmin);
  const itemAt = (i: number) => menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]')[i];
  const focusAt = useRef(0);
  // The menu opens with focus on an item (the first, or the last when opened with ArrowUp), in the same task.
  useLayoutEffect(() => {
    if (open) itemAt(focusAt.current)?.focus();
  }, [open]);
  useEffect(() => {
    if (!open) return;
    // A click anywhere else closes the menu, as menus do.
    const away = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!menu.current?.contains(t) && !button.current?.contains(t)) onClose();
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open]);
  const close = () => {
    onClose();
    button.current?.focus();
  };
  return (
    <span class="message-menu">
      <button
        ref={button}
        class="more"
        aria-label="More actions"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? `message-menu-${message.id}` : undefined}
        onClick={() => {
          focusAt.current = 0;
          if (open) onClose();
          else onOpen();
        }}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
          e.preventDefault();
          focusAt.current = e.key === 'ArrowUp' ? items.length - 1 : 0;
          if (open) itemAt(focusAt.current)?.focus();
          else onOpen();
        }}
      >
        ⋯
      </button>
      {open && (
        <ul
          ref={menu}
          class="menu"
          role="menu"
          id={`message-menu-${message.id}`}
          aria-label="Message actions"
          onKeyDown={(e) => {
            // The j/k and other shortcuts of the feed stay out of the menu.
            e.stopPropagation();
            if (e.key === 'Escape' || e.key === 'Tab') {
              if (e.key === 'Escape') e.preventDefault();
              close();
              return;
            }
            const all = [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
            const to = menuMove(e.key, all.indexOf(document.activeElement as HTMLButtonElement), all.length);
            if (to === null) return;
            e.preventDefault();
            all[to]?.focus();
          }}
        >
          {items.map((item) => (
            <li key={item.action} role="none">
              <button
                role="menuitem"
                tabIndex={-1}
                class={item.action}
                onClick={() => {
                  close();
                  onAction(item.action);
                }}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </span>
  );
}
