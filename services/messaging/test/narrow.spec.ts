import { parseValue } from '@confab/http';
import { flagNames, FLAG } from '@confab/zulip';
import type { Actor } from '../src/domain/actor';
import type { Domain } from '../src/domain/context';
import { parseAnchor, resolveNarrow } from '../src/domain/fetch';
import { narrowSchema } from '../src/routes/narrow.params';

describe('narrow parameter', () => {
  it('accepts dicts and legacy pairs', () => {
    expect(parseValue(narrowSchema, [{ operator: 'stream', operand: 'Verona' }, ['topic', 'lunch']], 'narrow')).toEqual(
      [
        { operator: 'stream', operand: 'Verona', negated: false },
        { operator: 'topic', operand: 'lunch', negated: false },
      ],
    );
    expect(parseValue(narrowSchema, [{ operator: 'dm', operand: [1, 2], negated: true }], 'narrow')).toEqual([
      { operator: 'dm', operand: [1, 2], negated: true },
    ]);
  });

  it('refuses malformed terms with Zulip-style messages', () => {
    expect(() => parseValue(narrowSchema, [{ operator: 'stream' }], 'narrow')).toThrow(
      `Missing 'narrow[0]["operand"]' argument`,
    );
    expect(() => parseValue(narrowSchema, 'x', 'narrow')).toThrow('narrow is not a list');
  });
});

describe('parseAnchor', () => {
  it('understands Zulip’s special anchors and clamps numbers', () => {
    expect(parseAnchor('oldest', false)).toBe(0);
    expect(parseAnchor('newest', false)).toBe(10_000_000_000_000_000);
    expect(parseAnchor('first_unread', false)).toBe('first_unread');
    expect(parseAnchor(undefined, true)).toBe('first_unread');
    expect(parseAnchor('-5', false)).toBe(0);
    expect(parseAnchor('42', false)).toBe(42);
    expect(() => parseAnchor('middle', false)).toThrow('Invalid anchor');
    expect(() => parseAnchor(undefined, false)).toThrow("Missing 'anchor' argument.");
  });
});

describe('flagNames', () => {
  it("lists flags in Zulip's order and adds wildcard_mentioned for older clients", () => {
    expect(flagNames(FLAG.read | FLAG.starred)).toEqual(['read', 'starred']);
    expect(flagNames(FLAG.topic_wildcard_mentioned | FLAG.is_private)).toEqual([
      'topic_wildcard_mentioned',
      'wildcard_mentioned',
    ]);
    expect(flagNames(0)).toEqual([]);
  });
});

describe('resolveNarrow on the shared grammar (libs/zulip/src/narrow.ts)', () => {
  // Terms that need no lookup: the domain is never consulted, nor the caller beyond the empty topic's name.
  const resolve = (narrow: { operator: string; operand: string; negated?: boolean }[]) =>
    resolveNarrow(
      {} as Domain,
      { realm: { emptyTopicDisplayName: 'general chat' } } as Actor,
      narrow.map((t) => ({ negated: false, ...t })),
    );

  it('folds the synonyms GET /messages takes, and reads history only for terms that need no own rows', async () => {
    expect(
      await resolve([
        { operator: 'subject', operand: 'lunch' },
        { operator: 'is', operand: 'resolved' },
      ]),
    ).toEqual(
      await resolve([
        { operator: 'topic', operand: 'lunch' },
        { operator: 'is', operand: 'resolved' },
      ]),
    );
    const starred = await resolve([{ operator: 'is', operand: 'starred', negated: true }]);
    expect(starred.terms).toEqual([{ kind: 'flags', bits: FLAG.starred, set: true, negated: true }]);
    expect(starred.scope).toEqual({ kind: 'user' });
    expect((await resolve([{ operator: 'has', operand: 'image' }])).terms).toEqual([
      { kind: 'has', what: 'image', negated: false },
    ]);
  });

  it('refuses `from` (a synonym of the search box only) and operands outside the grammar, as Zulip does', async () => {
    await expect(resolve([{ operator: 'from', operand: 'iago@zulip.com' }])).rejects.toThrow(
      'Invalid narrow operator: unknown operator from',
    );
    await expect(resolve([{ operator: 'is', operand: 'constructor' }])).rejects.toThrow(
      "Invalid narrow operator: unknown 'is' operand constructor",
    );
    await expect(resolve([{ operator: 'has', operand: 'video' }])).rejects.toThrow(
      "Invalid narrow operator: unknown 'has' operand video",
    );
  });
});
