import type { Suggestion } from './autocomplete';

/**
 * What the compose box offers for the `@` or `:` being typed: a listbox the message field controls
 * (`aria-controls="compose-mentions"`); arrows and Enter/Tab are handled by the field, a click picks here.
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
          role="option"
          aria-selected={i === selected}
          class={i === selected ? 'selected' : ''}
          onMouseDown={(e) => {
            // Keeps the focus in the message field.
            e.preventDefault();
            onPick(suggestion);
          }}
        >
          {suggestion.label}
        </li>
      ))}
    </ul>
  );
}
