import { decodeHashComponent, encodeHashComponent, narrowHash, parseHash, routeHash } from '../src/lib/hash';
import { anchorOf, conversationOf, wireNarrow } from '../src/lib/narrow';
import { messageNarrowUrl } from '@confab/zulip';

const names = {
  channelName: (id: number) => ({ 3: 'Denmark', 7: 'core team', 9: 'v1.2 (beta)' })[id],
  userName: (id: number) => ({ 10: 'Iago', 11: 'King Hamlet' })[id],
};

describe("Zulip's hash encoding", () => {
  it('encodes as Zulip does: percent becomes a dot, dots and parentheses are escaped', () => {
    expect(encodeHashComponent('castle walls')).toBe('castle.20walls');
    expect(encodeHashComponent('v1.2 (beta)')).toBe('v1.2E2.20.28beta.29');
    expect(encodeHashComponent('naïve')).toBe('na.C3.AFve');
    expect(decodeHashComponent('castle.20walls')).toBe('castle walls');
    expect(decodeHashComponent('v1.2E2.20.28beta.29')).toBe('v1.2 (beta)');
    for (const text of ['a.b', '100%', 'x/y?z#w', 'emoji 🎉', ''])
      expect(decodeHashComponent(encodeHashComponent(text))).toBe(text);
  });

  it('writes channel, topic, dm and near links in Zulip’s forms', () => {
    expect(
      narrowHash(
        [
          { operator: 'channel', operand: 7 },
          { operator: 'topic', operand: 'release 1.0' },
        ],
        names,
      ),
    ).toBe('#narrow/channel/7-core-team/topic/release.201.2E0');
    expect(narrowHash([{ operator: 'dm', operand: [10] }], names)).toBe('#narrow/dm/10-Iago');
    expect(narrowHash([{ operator: 'dm', operand: [10, 11] }], names)).toBe('#narrow/dm/10,11-group');
    expect(
      narrowHash(
        [
          { operator: 'channel', operand: 3 },
          { operator: 'topic', operand: 'x' },
          { operator: 'near', operand: 42 },
        ],
        names,
      ),
    ).toBe('#narrow/channel/3-Denmark/topic/x/near/42');
    expect(narrowHash([], names)).toBe('#feed');
    expect(narrowHash([{ operator: 'is', operand: 'starred', negated: true }], names)).toBe('#narrow/-is/starred');
    expect(routeHash({ view: 'inbox' }, names)).toBe('#inbox');
    expect(routeHash({ view: 'channels', channelId: 3 }, names)).toBe('#channels/3');
  });

  it('writes the same link for a message as the server does (one encoder, @confab/zulip)', () => {
    const terms = [
      { operator: 'channel', operand: 9 },
      { operator: 'topic', operand: "what's (new)!" },
      { operator: 'near', operand: 42 },
    ];
    const server = messageNarrowUrl('https://chat.example.com', { id: 9, name: 'v1.2 (beta)' }, "what's (new)!", 42);
    expect(narrowHash(terms, names)).toBe('#narrow/channel/9-v1.2E2-.28beta.29/topic/what.27s.20.28new.29.21/near/42');
    expect(server).toBe(`https://chat.example.com/${narrowHash(terms, names)}`);
    expect(parseHash(narrowHash(terms, names))).toEqual({ view: 'narrow', terms });
  });

  it('reads links from Zulip’s apps, old and new forms alike', () => {
    expect(parseHash('#narrow/channel/7-core-team/topic/release.201.2E0')).toEqual({
      view: 'narrow',
      terms: [
        { operator: 'channel', operand: 7 },
        { operator: 'topic', operand: 'release 1.0' },
      ],
    });
    expect(parseHash('#narrow/stream/3-Denmark/subject/castle/near/99')).toEqual({
      view: 'narrow',
      terms: [
        { operator: 'channel', operand: 3 },
        { operator: 'topic', operand: 'castle' },
        { operator: 'near', operand: 99 },
      ],
    });
    expect(parseHash('#narrow/pm-with/10,11-group')).toEqual({
      view: 'narrow',
      terms: [{ operator: 'dm', operand: [10, 11] }],
    });
    expect(parseHash('#narrow/dm/10-Iago/with/5').view).toBe('narrow');
    expect(parseHash('#narrow/stream/Denmark', (name) => (name === 'Denmark' ? 3 : undefined))).toEqual({
      view: 'narrow',
      terms: [{ operator: 'channel', operand: 3 }],
    });
    expect(parseHash('#narrow/search/castle.20walls')).toEqual({
      view: 'narrow',
      terms: [{ operator: 'search', operand: 'castle walls' }],
    });
    expect(parseHash('#narrow/near/12')).toEqual({ view: 'narrow', terms: [{ operator: 'near', operand: 12 }] });
    expect(parseHash('#narrow/-is/read')).toEqual({
      view: 'narrow',
      terms: [{ operator: 'is', operand: 'read', negated: true }],
    });
    expect(parseHash('#feed')).toEqual({ view: 'narrow', terms: [] });
    expect(parseHash('#recent')).toEqual({ view: 'recent' });
    expect(parseHash('#channels/4')).toEqual({ view: 'channels', channelId: 4 });
    expect(parseHash('')).toEqual({ view: 'inbox' });
    expect(parseHash('#nonsense')).toEqual({ view: 'inbox' });
    // A hand-written link with a stray percent sign still opens.
    expect(parseHash('#narrow/topic/100%')).toEqual({
      view: 'narrow',
      terms: [{ operator: 'topic', operand: '100%' }],
    });
  });

  it('round-trips every narrow it writes', () => {
    const narrows = [
      [
        { operator: 'channel', operand: 9 },
        { operator: 'topic', operand: 'a/b.c (d) 100%' },
      ],
      [
        { operator: 'dm', operand: [10, 11] },
        { operator: 'near', operand: 5 },
      ],
      [
        { operator: 'sender', operand: 'iago@zulip.com' },
        { operator: 'has', operand: 'link' },
        { operator: 'search', operand: 'ghost' },
      ],
    ];
    for (const terms of narrows) expect(parseHash(narrowHash(terms, names))).toEqual({ view: 'narrow', terms });
  });
});

describe('narrows', () => {
  it('knows a conversation from a filter, and the message a link centres on', () => {
    expect(conversationOf([{ operator: 'channel', operand: 3 }])).toEqual({ kind: 'stream', streamId: 3 });
    expect(
      conversationOf([
        { operator: 'channel', operand: 3 },
        { operator: 'topic', operand: 't' },
        { operator: 'near', operand: 4 },
      ]),
    ).toEqual({
      kind: 'stream',
      streamId: 3,
      topic: 't',
    });
    expect(conversationOf([{ operator: 'dm', operand: [11, 10] }])).toEqual({ kind: 'dm', userIds: [10, 11] });
    expect(
      conversationOf([
        { operator: 'channel', operand: 3 },
        { operator: 'search', operand: 'x' },
      ]),
    ).toBeNull();
    expect(conversationOf([{ operator: 'is', operand: 'starred' }])).toBeNull();
    expect(conversationOf([])).toBeNull();
    expect(anchorOf([{ operator: 'near', operand: 8 }])).toBe(8);
    expect(anchorOf([{ operator: 'channel', operand: 3 }])).toBeNull();
    expect(
      wireNarrow([
        { operator: 'channel', operand: 3 },
        { operator: 'near', operand: 8 },
        { operator: 'is', operand: 'read', negated: true },
      ]),
    ).toEqual([
      { operator: 'channel', operand: 3 },
      { operator: 'is', operand: 'read', negated: true },
    ]);
  });
});
