import { useEffect, useState } from 'preact/hooks';
import { isSearch } from '../lib/narrow';
import { navigate, route } from '../lib/router';
import { channelName, channelId, users } from '../store/store';
import { parseSearch, unparseSearch } from './query';

const userId = (text: string): number | undefined => {
  const lower = text.toLowerCase();
  for (const u of users.value.values())
    if (u.email.toLowerCase() === lower || u.full_name.toLowerCase() === lower) return u.user_id;
  return undefined;
};
const userEmail = (id: number) => users.value.get(id)?.email;

/** The search box: Zulip's search syntax, turned into a narrow (`#narrow/…/search/…`) that the server answers. */
export function SearchBox() {
  const current = route.value;
  const shown =
    current.view === 'narrow' && isSearch(current.terms)
      ? unparseSearch(current.terms, { channelName, userEmail })
      : '';
  const [query, setQuery] = useState(shown);
  useEffect(() => setQuery(shown), [shown]);
  return (
    <form
      class="search"
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        const terms = parseSearch(query.trim(), { channelId, userId });
        if (terms.length > 0) navigate({ view: 'narrow', terms });
      }}
    >
      <input
        id="search"
        type="search"
        aria-label="Search messages"
        placeholder="Search (channel: topic: sender: has: is:)"
        value={query}
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setQuery('');
        }}
      />
      <button id="search-go" type="submit">
        Search
      </button>
    </form>
  );
}
