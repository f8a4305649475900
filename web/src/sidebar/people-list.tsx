import type { ComponentChildren } from 'preact';
import { hrefFor } from '../lib/router';
import { StatusBadge } from '../settings/status';
import { presenceStatus, type User } from '../store/model';
import { dmConversations, me, presence, presenceTimes, userName, users } from '../store/store';
import { filterPeople } from './filter';
import { FilterBox, Section, Unread } from './section';
import { peopleSearch } from './state';

type Count = (key: string) => number;

/** The one-to-one conversation now open ("12"), or ''. */
type Props = { current: string; count: Count };

const sum = (people: readonly User[], count: Count) => people.reduce((n, u) => n + count(`d:${u.user_id}`), 0);

/** Everyone else who is a person (bots have a section of their own), with "Search people" above them. */
export function PeopleSection({ current, count }: Props) {
  const self = me.value;
  const people = [...users.value.values()].filter((u) => u.user_id !== self && !u.is_bot);
  const query = peopleSearch.value;
  const shown = filterPeople(people, query);
  const offlineAfter = presenceTimes.value.offline;
  const now = Date.now() / 1000;
  return (
    <Section name="people" title="Direct messages" unread={sum(people, count)}>
      {people.length > 0 && (
        <FilterBox id="people-filter" label="Search people" value={query} onChange={(v) => (peopleSearch.value = v)} />
      )}
      <ul class="people-rows" aria-label="People">
        {shown.map((u) => {
          const state = presenceStatus(presence.value.get(u.user_id), now, offlineAfter);
          return (
            <PersonRow key={u.user_id} user={u} current={current} count={count}>
              <span class={`presence ${state}`} role="img" aria-label={state} />
            </PersonRow>
          );
        })}
      </ul>
      {query.trim() !== '' && shown.length === 0 && (
        <p class="no-match" role="status">
          No one matches.
        </p>
      )}
    </Section>
  );
}

/** The organization's bots, apart from the people (as Zulip lists them), for a direct message to one. */
export function BotSection({ current, count }: Props) {
  const self = me.value;
  const bots = [...users.value.values()].filter((u) => u.user_id !== self && u.is_bot);
  if (bots.length === 0) return null;
  return (
    <Section name="bots" title="Bots" unread={sum(bots, count)}>
      <ul class="bot-rows" aria-label="Bots">
        {bots.map((u) => (
          <PersonRow key={u.user_id} user={u} current={current} count={count}>
            <span class="bot-mark" aria-hidden="true" />
          </PersonRow>
        ))}
      </ul>
    </Section>
  );
}

function PersonRow({ user, current, count, children }: Props & { user: User; children: ComponentChildren }) {
  return (
    <li>
      <a
        class="conversation"
        data-user={user.email}
        href={hrefFor({ view: 'narrow', terms: [{ operator: 'dm', operand: [user.user_id] }] })}
        aria-current={current === String(user.user_id) ? 'page' : undefined}
      >
        {children}
        <span class="name">{user.full_name}</span>
        <StatusBadge userId={user.user_id} />
        <Unread count={count(`d:${user.user_id}`)} />
      </a>
    </li>
  );
}

/** Group direct messages (three people or more), most recent first, with their unread counts. */
export function GroupSection({ current, count }: Props) {
  const groups = dmConversations.value.filter((ids) => ids.length > 1).slice(0, 10);
  if (groups.length === 0) return null;
  const unread = groups.reduce((n, ids) => n + count(`d:${ids.join(',')}`), 0);
  return (
    <Section name="groups" title="Group conversations" unread={unread}>
      <ul aria-label="Group conversations">
        {groups.map((ids) => {
          const label = ids.map((id) => userName(id) ?? `#${id}`).join(', ');
          return (
            <li key={ids.join()}>
              <a
                class="conversation"
                data-group-dm={ids.join(',')}
                href={hrefFor({ view: 'narrow', terms: [{ operator: 'dm', operand: ids }] })}
                aria-current={current === ids.join() ? 'page' : undefined}
              >
                <span class="name">{label}</span>
                <Unread count={count(`d:${ids.join(',')}`)} />
              </a>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}
