/**
 * The compose box's completion: what the text before the cursor is completing (autocomplete.ts), the suggestions
 * for it (suggestions.ts, from the store's channels, topics and groups and the people and emoji given), and the
 * keys of the message field while they are shown: arrows move, Enter or Tab picks, Esc closes.
 */
import { useEffect, useState } from 'preact/hooks';
import { emojiMatches, type EmojiChoice } from '../emoji/emoji';
import { userGroups } from '../store/integrations';
import { emojiGlyph, type User } from '../store/model';
import { streams, subscriptions, topics } from '../store/store';
import { completingAt, replaceTyped, type Completing, type Suggestion } from './autocomplete';
import {
  channelNamed,
  channelSuggestions,
  commandSuggestions,
  mentionSuggestions,
  topicSuggestions,
} from './suggestions';
import { loadTopics } from './topics';

/** The listbox's accessible name for each kind. */
export const LIST_LABELS: Record<Completing['kind'], string> = {
  mention: 'People and groups to mention',
  emoji: 'Emoji',
  channel: 'Channels',
  topic: 'Topics',
  command: 'Commands',
};

export function useAutocomplete(users: readonly User[], emoji: readonly EmojiChoice[]) {
  const [completing, setCompleting] = useState<Completing | null>(null);
  const [index, setIndex] = useState(0);

  const topicChannel =
    completing?.kind === 'topic'
      ? channelNamed(completing.channel, [...subscriptions.value, ...streams.value])
      : undefined;
  const topicChannelId = topicChannel?.stream_id;
  useEffect(() => {
    if (topicChannelId !== undefined) void loadTopics(topicChannelId);
  }, [topicChannelId]);

  const suggestions = suggestionsFor(completing, users, emoji, topicChannel);

  /** Reads what is being completed from the field's text before its cursor. */
  function onTyped(el: HTMLTextAreaElement) {
    const next = completingAt(el.value.slice(0, el.selectionStart ?? el.value.length));
    if (next?.kind !== completing?.kind || next?.start !== completing?.start) setIndex(0);
    setCompleting(next);
  }

  /**
   * The field's key while suggestions are shown; true when it was handled. `pick` puts the chosen text in, given
   * the message and cursor after it.
   */
  function onKeyDown(e: KeyboardEvent, pick: (suggestion: Suggestion) => void): boolean {
    if (suggestions.length === 0 || !completing) return false;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      const step = e.key === 'ArrowDown' ? 1 : suggestions.length - 1;
      setIndex((index + step) % suggestions.length);
      return true;
    }
    if (e.key === 'Enter' || e.key === 'Tab') {
      e.preventDefault();
      pick(suggestions[index] ?? suggestions[0]);
      return true;
    }
    if (e.key === 'Escape') {
      // Esc closes the suggestions only (it leaves the field when none are shown).
      e.preventDefault();
      setCompleting(null);
      return true;
    }
    return false;
  }

  /** The message with the typed text replaced by `suggestion`, and the cursor after it; closes the suggestions. */
  function apply(content: string, cursor: number, suggestion: Suggestion) {
    const done = completing ? replaceTyped(content, cursor, completing, suggestion.insert) : null;
    setCompleting(null);
    return done;
  }

  return {
    completing,
    suggestions,
    selected: Math.min(index, Math.max(suggestions.length - 1, 0)),
    onTyped,
    onKeyDown,
    apply,
  };
}

function suggestionsFor(
  completing: Completing | null,
  users: readonly User[],
  emoji: readonly EmojiChoice[],
  topicChannel: { stream_id: number; name: string } | undefined,
): Suggestion[] {
  switch (completing?.kind) {
    case undefined:
      return [];
    case 'command':
      return commandSuggestions(completing.query);
    case 'channel':
      return channelSuggestions(completing.query, subscriptions.value, streams.value);
    case 'topic':
      return topicChannel
        ? topicSuggestions(topicChannel.name, completing.query, topics.value.get(topicChannel.stream_id) ?? [])
        : [];
    case 'mention': {
      const groups = [...userGroups.value].map(([id, g]) => ({ id, ...g, name: g.name ?? '' }));
      return mentionSuggestions(
        completing.query,
        completing.silent,
        users,
        groups.filter((g) => g.name),
      );
    }
    case 'emoji':
      return emojiMatches(emoji, completing.query).map((e) => ({
        key: `${e.type}:${e.code}:${e.name}`,
        label: `${emojiGlyph({ emoji_code: e.code, emoji_name: e.name, reaction_type: e.type })} :${e.name}:`,
        insert: `:${e.name}: `,
      }));
  }
}
