import type { Suggestion } from './autocomplete';

/**
 * What the compose box offers for the `@`, `:`, `#` or `/` being typed: a listbox the message field controls
 * (`aria-controls="compose-mentions"`, the selected option its `aria-activedescendant`); arrows and Enter/Tab are
 * handled by the field, a click picks here.
 */
export function SuggestionList({
  suggestions,
  selected,
  label,
  onPick,
}: {
  suggestions: Suggestion[];
  selected: number;
  label: string;
  onPick: (suggestion: Suggestion) => void;
}) {
  return (
    <ul id="compose-mentions" class="mentions" role="listbox" aria-label={label}>
      {suggestions.map((suggestion, i) => (
        <li
          key={suggestion.key}
          id={`compose-mentions-${i}`}
          role="option"
          aria-selected={i === selected}
          class={i === selected ? 'selected' : ''}
          onMouseDown={(e) => {
            // Keeps the focus in the message field.
            e.preventDefault();
            onPick(suggestion);
          }}
        >
          <span class="label">{suggestion.label}</span>
          {suggestion.detail && <span class="detail">{suggestion.detail}</span>}
        </li>
      ))}
    </ul>
  );
}
