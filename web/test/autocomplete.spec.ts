import { completingAt, replaceTyped } from '../src/compose/autocomplete';
import {
  channelNamed,
  channelSuggestions,
  commandSuggestions,
  mentionSuggestions,
  topicSuggestions,
  wordPrefixRank,
} from '../src/compose/suggestions';

describe('what the compose box is completing', () => {
  it('reads a / command only at the start of the message', () => {
    expect(completingAt('/po')).toEqual({ kind: 'command', query: 'po', start: 0 });
    expect(completingAt('/')).toEqual({ kind: 'command', query: '', start: 0 });
    expect(completingAt('see /po')).toBeNull();
    expect(completingAt('/poll ')).toBeNull();
  });

  it('reads a #channel after the start or a space, not a heading or a URL fragment', () => {
    expect(completingAt('#ver')).toEqual({ kind: 'channel', query: 'ver', start: 0 });
    expect(completingAt('go to #**Ver')).toEqual({ kind: 'channel', query: 'Ver', start: 6 });
    expect(completingAt('see #')).toEqual({ kind: 'channel', query: '', start: 4 });
    expect(completingAt('# Heading')).toBeNull();
    expect(completingAt('http://x/#top')).toBeNull();
    expect(completingAt('#**Verona** ')).toBeNull();
  });

  it('reads a topic after #**Channel>, #**Channel**> and a picked channel followed by >', () => {
    const topic = { kind: 'topic', channel: 'Verona', query: 'bal', start: 3 };
    expect(completingAt('hi #**Verona>bal')).toEqual(topic);
    expect(completingAt('hi #**Verona**>bal')).toEqual(topic);
    expect(completingAt('hi #**Verona** >bal')).toEqual(topic);
    expect(completingAt('#**Ancient Rome>')).toEqual({ kind: 'topic', channel: 'Ancient Rome', query: '', start: 0 });
    expect(completingAt('#**Verona>balcony** ')).toBeNull();
  });

  it('reads a mention, silent after @_, and emoji after two characters', () => {
    expect(completingAt('hi @oth')).toEqual({ kind: 'mention', query: 'oth', start: 3, silent: false });
    expect(completingAt('@_**Oth')).toEqual({ kind: 'mention', query: 'Oth', start: 0, silent: true });
    expect(completingAt('a@b')).toBeNull();
    expect(completingAt('so :ta')).toEqual({ kind: 'emoji', query: 'ta', start: 3 });
    expect(completingAt('so :t')).toBeNull();
  });

  it('replaces what was typed from its start to the cursor, keeping what follows', () => {
    const completing = completingAt('see #ver')!;
    expect(replaceTyped('see #ver today', 8, completing, '#**Verona** ')).toEqual({
      text: 'see #**Verona**  today',
      cursor: 16,
    });
  });
});

describe('what the compose box offers', () => {
  const subscribed = [
    { stream_id: 1, name: 'Denmark' },
    { stream_id: 2, name: 'Verona', description: 'Fair Verona' },
  ];
  const visible = [
    ...subscribed,
    { stream_id: 3, name: 'Old Verona', is_archived: false },
    { stream_id: 4, name: 'Venice' },
    { stream_id: 5, name: 'Verona archive', is_archived: true },
    { stream_id: 6, name: 'Averona' },
  ];

  it('matches names by the start of a word', () => {
    expect(wordPrefixRank('Verona', 'ver')).toBe(0);
    expect(wordPrefixRank('Old Verona', 'ver')).toBe(1);
    expect(wordPrefixRank('Averona', 'ver')).toBe(-1);
  });

  it('offers subscribed channels first, then prefix matches, never archived ones, inserting a channel link', () => {
    const offered = channelSuggestions('ver', subscribed, visible);
    expect(offered.map((s) => s.label)).toEqual(['Verona', 'Old Verona']);
    expect(offered[0]).toMatchObject({ insert: '#**Verona** ', detail: 'Fair Verona' });
    expect(channelSuggestions('ve', subscribed, visible).map((s) => s.label)).toEqual([
      'Verona',
      'Venice',
      'Old Verona',
    ]);
    expect(
      channelSuggestions('', subscribed, visible)
        .slice(0, 2)
        .map((s) => s.label),
    ).toEqual(['Denmark', 'Verona']);
  });

  it('finds the channel a topic link names, by exact name first', () => {
    expect(channelNamed('verona', visible)?.stream_id).toBe(2);
    expect(channelNamed('Nowhere', visible)).toBeUndefined();
  });

  it('offers topics most recent first, a new topic last, inserting a topic link', () => {
    const offered = topicSuggestions('Verona', 'ba', ['balcony scene', 'the ball', 'garden']);
    expect(offered.map((s) => s.label)).toEqual(['balcony scene', 'the ball', 'ba']);
    expect(offered[0].insert).toBe('#**Verona>balcony scene** ');
    expect(topicSuggestions('Verona', '', ['garden']).map((s) => s.label)).toEqual(['garden']);
    expect(topicSuggestions('Verona', 'Garden', ['garden']).map((s) => s.label)).toEqual(['garden']);
  });

  it('offers people, then groups that are neither system groups nor deactivated; @_ mentions silently', () => {
    const people = [
      { user_id: 1, full_name: 'Othello, the Moor of Venice' },
      { user_id: 2, full_name: 'King Hamlet' },
      { user_id: 3, full_name: 'Hamlet Gone', is_active: false },
    ];
    const groups = [
      { id: 10, name: 'hamlet-fans', description: 'Readers' },
      { id: 11, name: 'role:hamlets', is_system_group: true },
      { id: 12, name: 'hamlet old', deactivated: true },
    ];
    const offered = mentionSuggestions('ham', false, people, groups);
    expect(offered.map((s) => [s.label, s.insert])).toEqual([
      ['King Hamlet', '@**King Hamlet** '],
      ['hamlet-fans', '@*hamlet-fans* '],
    ]);
    expect(offered[1].detail).toBe('Group · Readers');
    expect(mentionSuggestions('ham', true, people, groups).map((s) => s.insert)).toEqual([
      '@_**King Hamlet** ',
      '@_*hamlet-fans* ',
    ]);
  });

  it('offers the / commands with what each does', () => {
    expect(commandSuggestions('po')).toEqual([
      { key: '/poll', label: '/poll', detail: 'Create a poll', insert: '/poll ' },
    ]);
    expect(commandSuggestions('').map((s) => s.label)).toEqual(['/me', '/poll', '/todo']);
    expect(commandSuggestions('x')).toEqual([]);
  });
});
