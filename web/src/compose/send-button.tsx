/**
 * The compose box's Send: one inline button, and beside it a "▾" button opening its menu (a real menu: aria-haspopup,
 * arrow keys, Home/End, Escape gives focus back to its button) with send later — tomorrow morning, or a time of
 * one's choice in a small panel ("Send at", the zone it reads the time in, Schedule) — and, as Zulip's, the choice
 * of what sends: Enter or Ctrl+Enter (the `enter_sends` setting, saved at once).
 */
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { menuMove } from '../conversations/message-menu';
import { browserZone, currentDisplay, fromZonedInput, shortDateTime } from '../conversations/times';
import * as client from '../lib/client';
import { setSettingLocally, settings } from '../store/personal';
import { suggestedTime, tomorrowAt } from './send-later';

const MORNING = 9;

export function SendButton({ onSchedule }: { onSchedule: (at: number) => Promise<boolean> }) {
  const [open, setOpen] = useState(false);
  const [choosing, setChoosing] = useState(false);
  const [sendAt, setSendAt] = useState('');
  const toggle = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const group = useRef<HTMLDivElement>(null);
  const focusAt = useRef(0);
  const zone = currentDisplay().timeZone;
  const twentyFour = !!settings.value.twenty_four_hour_time;
  const morning = tomorrowAt(Date.now(), MORNING, zone);
  const items = () => [...(menu.current?.querySelectorAll<HTMLButtonElement>('[role^="menuitem"]') ?? [])];
  /** Focuses the item at focusAt (from the end when negative). */
  const focusItem = () => {
    const all = items();
    all[focusAt.current < 0 ? all.length + focusAt.current : focusAt.current]?.focus();
  };
  const enterSends = !!settings.value.enter_sends;
  /** Enter or Ctrl+Enter sends: shown at once, saved (PATCH /settings), put back if the server refuses. */
  const chooseEnter = (value: boolean) => {
    close();
    if (value === enterSends) return;
    const change = setSettingLocally('enter_sends', value);
    void client.me.settings({ enter_sends: value }).catch(() => change.undo());
  };

  useLayoutEffect(() => {
    if (open) focusItem();
  }, [open]);
  useLayoutEffect(() => {
    if (choosing) field.current?.focus();
  }, [choosing]);
  useEffect(() => {
    if (!open && !choosing) return;
    // A click elsewhere closes the menu or the panel, as menus do.
    const away = (e: MouseEvent) => {
      if (!group.current?.contains(e.target as Node)) {
        setOpen(false);
        setChoosing(false);
      }
    };
    document.addEventListener('mousedown', away);
    return () => document.removeEventListener('mousedown', away);
  }, [open, choosing]);
  const close = () => {
    setOpen(false);
    setChoosing(false);
    toggle.current?.focus();
  };
  const schedule = async (at: number) => {
    if (await onSchedule(at)) close();
  };

  return (
    <div
      class="send-group"
      ref={group}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && (open || choosing)) {
          e.preventDefault();
          e.stopPropagation();
          close();
        }
      }}
    >
      <button
        id="compose-send"
        class="send"
        type="submit"
        title={settings.value.enter_sends ? 'Send (Enter)' : 'Send (Ctrl+Enter)'}
      >
        Send
      </button>
      <button
        id="compose-send-menu"
        class="send-menu"
        type="button"
        ref={toggle}
        aria-label="Send options"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? 'compose-send-options' : undefined}
        onClick={() => {
          focusAt.current = 0;
          setChoosing(false);
          setOpen(!open);
        }}
        onKeyDown={(e) => {
          if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
          e.preventDefault();
          // ArrowUp opens it on its last item, ArrowDown on its first (the menu button pattern).
          focusAt.current = e.key === 'ArrowUp' ? -1 : 0;
          if (open) focusItem();
          else setOpen(true);
        }}
      >
        ▾
      </button>
      {open && (
        <ul
          ref={menu}
          id="compose-send-options"
          class="send-options"
          role="menu"
          aria-label="Send options"
          onKeyDown={(e) => {
            // The feed's shortcuts stay out of the menu.
            e.stopPropagation();
            if (e.key === 'Escape') e.preventDefault();
            if (e.key === 'Tab' || e.key === 'Escape') return close();
            const all = items();
            const to = menuMove(e.key, all.indexOf(document.activeElement as HTMLButtonElement), all.length);
            if (to === null) return;
            e.preventDefault();
            all[to]?.focus();
          }}
        >
          <li role="none">
            <button
              role="menuitem"
              tabIndex={-1}
              type="button"
              class="later-morning"
              onClick={() => void schedule(morning)}
            >
              Send tomorrow, {shortDateTime(Math.floor(morning / 1000), twentyFour)}
            </button>
          </li>
          <li role="none">
            <button
              role="menuitem"
              tabIndex={-1}
              type="button"
              class="later-custom"
              onClick={() => {
                setOpen(false);
                if (!sendAt) setSendAt(suggestedTime(Date.now(), zone));
                setChoosing(true);
              }}
            >
              Send later at a chosen time…
            </button>
          </li>
          <li role="separator" />
          {[true, false].map((value) => (
            <li role="none" key={String(value)}>
              <button
                role="menuitemradio"
                aria-checked={enterSends === value}
                tabIndex={-1}
                type="button"
                class={value ? 'enter-sends' : 'ctrl-enter-sends'}
                onClick={() => chooseEnter(value)}
              >
                <span class="check" aria-hidden="true">
                  {enterSends === value ? '✓' : ''}
                </span>
                {value ? 'Enter sends' : 'Ctrl+Enter sends'}
              </button>
            </li>
          ))}
        </ul>
      )}
      {choosing && (
        <div class="send-later-panel" role="group" aria-label="Send later">
          <label class="later">
            <span>Send at</span> <span class="zone">{zone ?? browserZone()}</span>
            <input
              id="compose-send-at"
              ref={field}
              type="datetime-local"
              step="1"
              value={sendAt}
              onInput={(e) => setSendAt(e.currentTarget.value)}
            />
          </label>
          <div class="panel-buttons">
            <button type="button" class="cancel" onClick={close}>
              Cancel
            </button>
            <button
              id="compose-send-later"
              type="button"
              onClick={() => void schedule(sendAt ? fromZonedInput(sendAt, zone) : NaN)}
            >
              Schedule
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
