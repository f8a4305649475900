/** The URL generator's choices: which integration (from the searchable catalog), and where its messages go. */
import { useMemo, useState } from 'preact/hooks';
import { CATALOG, CATEGORIES, type Category } from '@confab/integrations/catalog';
import EVENTS from 'virtual:integration-events';
import { subscriptions } from '../store/store';
import { entryLabel, searchCatalog, usedCategories, type UrlChoice } from './logic';

const CATEGORY_LIST = usedCategories(CATALOG, CATEGORIES);

/** The searchable list of the catalog's integrations, as radio buttons (one name for assistive technology). */
export function IntegrationPicker({
  id,
  value,
  onPick,
}: {
  id: string;
  value: string;
  onPick: (name: string) => void;
}) {
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState<Category | ''>('');
  const found = useMemo(() => searchCatalog(CATALOG, query, category), [query, category]);
  return (
    <fieldset class="integration-picker">
      <legend>Integration</legend>
      <div class="integration-filters">
        <label for={`${id}-search`}>Search integrations</label>
        <input id={`${id}-search`} type="search" value={query} onInput={(e) => setQuery(e.currentTarget.value)} />
        <label for={`${id}-category`}>Category</label>
        <select
          id={`${id}-category`}
          value={category}
          onChange={(e) => setCategory(e.currentTarget.value as Category | '')}
        >
          <option value="">All categories</option>
          {CATEGORY_LIST.map(([key, label]) => (
            <option key={key} value={key}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <p class="integration-count" role="status">
        {found.length === 1 ? '1 integration' : `${found.length} integrations`}
      </p>
      <ul class="integration-list">
        {found.map((entry) => (
          <li key={entry.name} data-integration={entry.name}>
            <label class="check">
              <input
                type="radio"
                name={`${id}-integration`}
                value={entry.name}
                checked={value === entry.name}
                onChange={() => onPick(entry.name)}
              />
              {entryLabel(entry)}
              <span class="description">{entry.categories.map((c) => CATEGORIES[c]).join(', ')}</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** Channel (or a DM to oneself), topic and events: the rest of what the URL says. */
export function Destination({
  id,
  choice,
  onChange,
}: {
  id: string;
  choice: UrlChoice;
  onChange: (c: UrlChoice) => void;
}) {
  const events = [...(EVENTS[choice.integration] ?? [])].sort((a, b) => a.localeCompare(b));
  const [some, setSome] = useState((choice.onlyEvents?.length ?? 0) > 0);
  const chosen = new Set(choice.onlyEvents ?? []);
  const toggle = (event: string, on: boolean) => {
    const next = events.filter((e) => (e === event ? on : chosen.has(e)));
    onChange({ ...choice, onlyEvents: next });
  };
  return (
    <div class="integration-destination">
      <label for={`${id}-stream`}>Where messages go</label>
      <select
        id={`${id}-stream`}
        value={choice.streamId === undefined ? '' : String(choice.streamId)}
        onChange={(e) => {
          const value = e.currentTarget.value;
          onChange(
            value === ''
              ? { ...choice, streamId: undefined, topic: undefined }
              : { ...choice, streamId: Number(value) },
          );
        }}
      >
        <option value="">Direct message to me</option>
        {subscriptions.value.map((s) => (
          <option key={s.stream_id} value={String(s.stream_id)}>
            #{s.name}
          </option>
        ))}
      </select>
      <label for={`${id}-topic`}>Topic (optional: else the integration's own)</label>
      <input
        id={`${id}-topic`}
        disabled={choice.streamId === undefined}
        value={choice.topic ?? ''}
        onInput={(e) => onChange({ ...choice, topic: e.currentTarget.value })}
      />
      {events.length > 0 && (
        <fieldset class="integration-events">
          <legend>Events</legend>
          <label class="check">
            <input
              id={`${id}-some-events`}
              type="checkbox"
              checked={some}
              onChange={(e) => {
                setSome(e.currentTarget.checked);
                if (!e.currentTarget.checked) onChange({ ...choice, onlyEvents: undefined });
              }}
            />
            Send only the events chosen here
          </label>
          {some && (
            <ul class="integration-event-list">
              {events.map((event) => (
                <li key={event}>
                  <label class="check">
                    <input
                      type="checkbox"
                      value={event}
                      checked={chosen.has(event)}
                      onChange={(e) => toggle(event, e.currentTarget.checked)}
                    />
                    {event}
                  </label>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
      )}
    </div>
  );
}
