import { parseSearch, unparseSearch } from '../src/search/query';

const context = {
  channelId: (name: string) => ({ denmark: 3, 'core team': 7 })[name.toLowerCase()],
  userId: (text: string) => ({ 'iago@zulip.com': 10 })[text.toLowerCase()],
};

describe("Zulip's search syntax", () => {
  it('turns words into one search term, after the operators', () => {
    expect(parseSearch('castle ghost', context)).toEqual([{ operator: 'search', operand: 'castle ghost' }]);
    expect(parseSearch('channel:Denmark ghost topic:castle', context)).toEqual([
      { operator: 'channel', operand: 3 },
      { operator: 'topic', operand: 'castle' },
      { operator: 'search', operand: 'ghost' },
    ]);
  });

  it('takes quoted operands, synonyms, negation and ids', () => {
    expect(parseSearch('stream:"core team" subject:"release notes" from:iago@zulip.com', context)).toEqual([
      { operator: 'channel', operand: 7 },
      { operator: 'topic', operand: 'release notes' },
      { operator: 'sender', operand: 'iago@zulip.com' },
    ]);
    expect(parseSearch('-is:read has:link is:starred', context)).toEqual([
      { operator: 'is', operand: 'read', negated: true },
      { operator: 'has', operand: 'link' },
      { operator: 'is', operand: 'starred' },
    ]);
    expect(parseSearch('dm:iago@zulip.com sender:12 near:5', context)).toEqual([
      { operator: 'dm', operand: [10] },
      { operator: 'sender', operand: 12 },
      { operator: 'near', operand: 5 },
    ]);
  });

  it('keeps unknown channels by name (the server resolves them) and treats unknown operators as words', () => {
    expect(parseSearch('channel:Elsewhere', context)).toEqual([{ operator: 'channel', operand: 'Elsewhere' }]);
    expect(parseSearch('http://x.org/a foo:bar topic:', context)).toEqual([
      { operator: 'search', operand: 'http://x.org/a foo:bar topic:' },
    ]);
    expect(parseSearch('   ', context)).toEqual([]);
  });

  it('writes a narrow back as the text one would type', () => {
    const names = {
      channelName: (id: number) => ({ 3: 'Denmark', 7: 'core team' })[id],
      userEmail: (id: number) => ({ 10: 'iago@zulip.com' })[id],
    };
    expect(
      unparseSearch(
        [
          { operator: 'channel', operand: 7 },
          { operator: 'topic', operand: 'release notes' },
          { operator: 'sender', operand: 10 },
          { operator: 'is', operand: 'read', negated: true },
          { operator: 'search', operand: 'ghost walk' },
        ],
        names,
      ),
    ).toBe('channel:"core team" topic:"release notes" sender:iago@zulip.com -is:read ghost walk');
    const text = 'channel:Denmark topic:castle ghost';
    expect(unparseSearch(parseSearch(text, context), names)).toBe(text);
  });
});
