import { checkChannelName, firstUnprintable, normalizeContent, normalizeTopic, truncate } from '../src/domain/text';

describe('normalizeContent', () => {
  it('trims trailing whitespace and leading newlines only', () => {
    expect(normalizeContent('\n\n  hello  \n\t ')).toBe('  hello');
  });

  it('refuses empty content and NUL bytes with Zulip’s messages', () => {
    expect(() => normalizeContent(' \n ')).toThrow('Message must not be empty');
    expect(() => normalizeContent('a\u0000b')).toThrow('Message must not contain null bytes');
  });

  it('truncates to 10000 code points including the marker', () => {
    const out = normalizeContent('x'.repeat(10_001));
    expect([...out]).toHaveLength(10_000);
    expect(out.endsWith('\n[message truncated]')).toBe(true);
    expect(normalizeContent('x'.repeat(10_000))).toBe('x'.repeat(10_000));
  });

  it('counts code points, not UTF-16 units', () => {
    const emoji = '🐙'.repeat(10_000);
    expect(normalizeContent(emoji)).toBe(emoji);
    expect([...normalizeContent('🐙'.repeat(10_001))]).toHaveLength(10_000);
  });
});

describe('normalizeTopic', () => {
  it('maps "(no topic)" and the display name to the empty topic', () => {
    expect(normalizeTopic('(no topic)', 'general chat')).toBe('');
    expect(normalizeTopic(' general chat ', 'general chat')).toBe('');
    expect(normalizeTopic('lunch', 'general chat')).toBe('lunch');
  });

  it('truncates to 57 characters and "..."', () => {
    expect(normalizeTopic('t'.repeat(61), 'x')).toBe(`${'t'.repeat(57)}...`);
    expect(normalizeTopic('t'.repeat(60), 'x')).toBe('t'.repeat(60));
  });

  it('refuses control characters with their 1-based position', () => {
    expect(() => normalizeTopic('ab\u0007c', 'x')).toThrow('Invalid character in topic, at position 3!');
  });
});

describe('text helpers', () => {
  it('finds unprintable code points and non-characters', () => {
    expect(firstUnprintable('fine')).toBeNull();
    expect(firstUnprintable('a\uFFFEb')).toBe(2);
    expect(firstUnprintable('🐙\u0000')).toBe(2);
  });

  it('truncates without splitting surrogate pairs', () => {
    expect(truncate('🐙🐙🐙🐙', 3, '.')).toBe('🐙🐙.');
  });

  it('checks channel names', () => {
    expect(() => checkChannelName('  ')).toThrow("Channel name can't be empty.");
    expect(() => checkChannelName('n'.repeat(61))).toThrow('Channel name too long (limit: 60 characters).');
    expect(() => checkChannelName('a\u0001')).toThrow('Invalid character in channel name, at position 2.');
    expect(() => checkChannelName('Verona')).not.toThrow();
  });
});
