/**
 * The people of the organization (`#people`): a search by name or address, each person's presence and status, their
 * card on a click, and a direct message to one or several of them (a group DM) from the ones chosen.
 */
import { useState } from 'preact/hooks';
import { navigate } from '../lib/router';
import { presenceStatus } from '../store/model';
import { StatusBadge } from '../settings/status';
import { me, presence, presenceTimes, users } from '../store/store';
import { Avatar } from './avatar';
import { cardUser } from './card';
import { roleName, searchPeople } from './describe';

export function PeopleView() {
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<number[]>([]);
  const self = me.value;
  const found = searchPeople(
    [...users.value.values()].filter((u) => u.is_active !== false),
    query,
  );
  const toggle = (id: number) =>
    setChosen((list) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]));
  return (
    <main class="view-pane people" aria-labelledby="view-title">
      <header class="view-header">
        <h2 id="view-title">People</h2>
      </header>
      <form
        class="people-tools"
        onSubmit={(e) => {
          e.preventDefault();
          if (chosen.length > 0)
            navigate({ view: 'narrow', terms: [{ operator: 'dm', operand: [...chosen].sort((a, b) => a - b) }] });
        }}
      >
        <input
          id="people-search"
          type="search"
          aria-label="Search people"
          placeholder="Search people"
          value={query}
          onInput={(e) => setQuery(e.currentTarget.value)}
        />
        <button id="people-message" type="submit" disabled={chosen.length === 0}>
          {chosen.length > 1 ? `Message these ${chosen.length}` : 'Message'}
        </button>
      </form>
      <p class="count" role="status">
        {found.length === 1 ? '1 person' : `${found.length} people`}
      </p>
      <ul class="people-list">
        {found.map((u) => {
          const state = presenceStatus(presence.value.get(u.user_id), Date.now() / 1000, presenceTimes.value.offline);
          return (
            <li key={u.user_id} data-person={u.email}>
              {u.user_id !== self && (
                <input
                  type="checkbox"
                  class="choose"
                  aria-label={`Choose ${u.full_name}`}
                  checked={chosen.includes(u.user_id)}
                  onChange={() => toggle(u.user_id)}
                />
              )}
              <Avatar user={u} />
              <span class={`presence ${state}`} role="img" aria-label={state} />
              <button class="person-name link-like" onClick={() => (cardUser.value = u.user_id)}>
                {u.full_name}
              </button>
              <span class="role">{roleName(u)}</span>
              <StatusBadge userId={u.user_id} withText />
            </li>
          );
        })}
      </ul>
    </main>
  );
}
