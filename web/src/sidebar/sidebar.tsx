import * as client from '../lib/client';
import { shortDateTime } from '../conversations/times';
import { settings } from '../store/personal';
import { conversationOf } from '../lib/narrow';
import { me, scheduled, shownCounts } from '../store/store';
import { route } from '../lib/router';
import { ChannelSection } from './channel-list';
import { BotSection, GroupSection, PeopleSection } from './people-list';
import './sidebar.css';

const VIEW_LINKS: { id: string; label: string; href: string }[] = [
  { id: 'inbox', label: 'Inbox', href: '#inbox' },
  { id: 'recent', label: 'Recent conversations', href: '#recent' },
  { id: 'feed', label: 'Combined feed', href: '#feed' },
  { id: 'mentions', label: 'Mentions', href: '#narrow/is/mentioned' },
  { id: 'starred', label: 'Starred messages', href: '#narrow/is/starred' },
  { id: 'drafts', label: 'Drafts', href: '#drafts' },
  { id: 'scheduled', label: 'Scheduled messages', href: '#scheduled' },
  { id: 'channels', label: 'Browse channels', href: '#channels' },
  { id: 'people', label: 'People', href: '#people' },
];

/**
 * The views, then the channels (with the open channel's topics), the people, the bots and the group conversations,
 * each a section that collapses and has its filter box, and the scheduled messages.
 */
export function Sidebar({ onFollow }: { onFollow?: () => void }) {
  const at = route.value;
  const here = location.hash || '#inbox';
  const conversation = at.view === 'narrow' ? conversationOf(at.terms) : null;
  // The counts the Inbox and the title show: muted topics and channels leave them.
  const unread = shownCounts.value;
  const count = (key: string) => unread.get(key) ?? 0;
  const self = me.value;
  // The direct message conversation open, without oneself ("12", or "12,15" for a group).
  const current = conversation?.kind === 'dm' ? conversation.userIds.filter((id) => id !== self).join() : '';
  return (
    <nav
      id="sidebar"
      aria-label="Conversations"
      onClick={(e) => {
        if ((e.target as Element).closest?.('a')) onFollow?.();
      }}
    >
      <ul class="views">
        {VIEW_LINKS.map((v) => (
          <li key={v.id}>
            <a
              class="conversation view-link"
              data-view={v.id}
              href={v.href}
              aria-current={here === v.href ? 'page' : undefined}
            >
              {v.label}
            </a>
          </li>
        ))}
      </ul>
      <ChannelSection conversation={conversation} count={count} />
      <PeopleSection current={current} count={count} />
      <BotSection current={current} count={count} />
      <GroupSection current={current} count={count} />
      {scheduled.value.length > 0 && (
        <>
          <h2>Scheduled</h2>
          <ul class="scheduled">
            {[...scheduled.value]
              .sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp)
              .map((m) => (
                <li key={m.scheduled_message_id} data-scheduled={m.scheduled_message_id}>
                  <time dateTime={new Date(m.scheduled_delivery_timestamp * 1000).toISOString()}>
                    {shortDateTime(m.scheduled_delivery_timestamp, !!settings.value.twenty_four_hour_time)}
                  </time>
                  <span class="text">{m.content}</span>
                  {m.failed && <span class="error">failed</span>}
                  <button
                    class="cancel"
                    aria-label="Cancel scheduled message"
                    onClick={() => void client.scheduledMessages.delete(m.scheduled_message_id).catch(() => undefined)}
                  >
                    Cancel
                  </button>
                </li>
              ))}
          </ul>
        </>
      )}
    </nav>
  );
}
