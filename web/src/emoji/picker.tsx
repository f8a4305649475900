import { useState } from 'preact/hooks';
import { emoji as allEmoji } from '../store/store';
import { CATEGORIES, categoryOf, type Category } from './categories';
import { emojiMatches, type EmojiChoice } from './emoji';
import { glyphOf } from './render';

/** One emoji per code (its canonical, first name), by category; built once per list of emoji. */
let cache: { from: readonly EmojiChoice[]; by: Map<Category, EmojiChoice[]> } | null = null;
function byCategory(list: readonly EmojiChoice[]): Map<Category, EmojiChoice[]> {
  if (cache?.from === list) return cache.by;
  const by = new Map<Category, EmojiChoice[]>(CATEGORIES.map((c) => [c, []]));
  const seen = new Set<string>();
  for (const e of list) {
    const key = `${e.type}:${e.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    by.get(categoryOf(e.code, e.type))!.push(e);
  }
  cache = { from: list, by };
  return by;
}

export function EmojiChoiceView({ choice }: { choice: EmojiChoice }) {
  return choice.type === 'realm_emoji' && choice.url ? (
    <img class="emoji" src={choice.url} alt="" width={20} height={20} />
  ) : (
    <>{glyphOf(choice.code) ?? `:${choice.name}:`}</>
  );
}

/** The emoji picker: categories (custom emoji first) and a search by name; Escape closes it. */
export function EmojiPicker({
  onPick,
  onClose,
  label = 'Choose an emoji',
}: {
  onPick: (choice: EmojiChoice) => void;
  onClose: () => void;
  label?: string;
}) {
  const list = allEmoji.value;
  const by = byCategory(list);
  const present = CATEGORIES.filter((c) => (by.get(c)?.length ?? 0) > 0);
  const [category, setCategory] = useState<Category>(present[0] ?? 'Smileys & people');
  const [query, setQuery] = useState('');
  const shown = query.trim() ? emojiMatches(list, query.trim().toLowerCase(), 60) : (by.get(category) ?? []);
  return (
    <div class="emoji-picker reaction-picker" role="dialog" aria-label={label}>
      <input
        class="emoji-search"
        aria-label="Search emoji"
        placeholder="Emoji name"
        autoFocus
        value={query}
        onInput={(e) => setQuery(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onClose();
          if (e.key === 'Enter') {
            e.preventDefault();
            if (shown[0]) onPick(shown[0]);
          }
        }}
      />
      {!query.trim() && (
        <div class="emoji-categories" role="tablist" aria-label="Emoji categories">
          {present.map((c) => (
            <button
              key={c}
              type="button"
              role="tab"
              class="emoji-category"
              data-category={c}
              aria-selected={c === category}
              onClick={() => setCategory(c)}
            >
              {c}
            </button>
          ))}
        </div>
      )}
      <div
        class="emoji-matches"
        role={query.trim() ? undefined : 'tabpanel'}
        aria-label={query.trim() ? 'Matching emoji' : category}
      >
        {shown.map((choice) => (
          <button
            key={`${choice.type}:${choice.code}:${choice.name}`}
            type="button"
            class="emoji-choice"
            data-emoji={choice.name}
            aria-label={choice.name}
            title={`:${choice.name}:`}
            onClick={() => onPick(choice)}
          >
            <EmojiChoiceView choice={choice} />
          </button>
        ))}
      </div>
    </div>
  );
}
