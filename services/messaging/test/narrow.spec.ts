import { parseValue } from '@confab/http';
import { flagNames, FLAG } from '@confab/zulip';
import { parseAnchor } from '../src/domain/fetch';
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
