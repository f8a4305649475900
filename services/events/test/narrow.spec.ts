import { checkNarrowForEvents, matchesNarrow } from '../src/domain/narrow';

const streamMessage = {
  type: 'stream',
  display_recipient: 'Denmark',
  subject: 'Lunch plans',
  sender_email: 'Hamlet@zulip.com',
};
const directMessage = { type: 'private', display_recipient: [], subject: '', sender_email: 'iago@zulip.com' };

describe('event queue narrows (Zulip build_narrow_predicate)', () => {
  it('matches channel, topic words, exact topic and sender case-insensitively where Zulip does', () => {
    expect(matchesNarrow([['channel', 'denmark']], streamMessage, [])).toBe(true);
    expect(matchesNarrow([['stream', 'Scotland']], streamMessage, [])).toBe(false);
    expect(matchesNarrow([['topic', 'lunch']], streamMessage, [])).toBe(true);
    expect(matchesNarrow([['topic', 'lunch plans']], streamMessage, [])).toBe(true);
    expect(matchesNarrow([['topic', 'dinner']], streamMessage, [])).toBe(false);
    expect(matchesNarrow([['exact-topic', 'lunch plans']], streamMessage, [])).toBe(false);
    expect(matchesNarrow([['sender', 'hamlet@ZULIP.com']], streamMessage, [])).toBe(true);
    expect(matchesNarrow([['channel', 'Denmark']], directMessage, [])).toBe(false);
  });

  it('matches is: operands against the type and the flags', () => {
    expect(matchesNarrow([['is', 'dm']], directMessage, [])).toBe(true);
    expect(matchesNarrow([['is', 'private']], streamMessage, [])).toBe(false);
    expect(matchesNarrow([['is', 'starred']], streamMessage, ['starred'])).toBe(true);
    expect(matchesNarrow([['is', 'unread']], streamMessage, ['read'])).toBe(false);
    expect(matchesNarrow([['is', 'mentioned']], streamMessage, ['mentioned'])).toBe(true);
    expect(matchesNarrow([['is', 'alerted']], streamMessage, [])).toBe(false);
    expect(matchesNarrow([['is', 'resolved']], { ...streamMessage, subject: '✔ done' }, [])).toBe(true);
    expect(
      matchesNarrow(
        [
          ['channel', 'Denmark'],
          ['is', 'starred'],
        ],
        streamMessage,
        [],
      ),
    ).toBe(false);
  });

  it('refuses what an event queue cannot filter on, with Zulip’s texts', () => {
    expect(() => checkNarrowForEvents([['search', 'x']])).toThrow('Operator search not supported.');
    expect(() => checkNarrowForEvents([['is', 'followed']])).toThrow('Operand followed not supported.');
    expect(() =>
      checkNarrowForEvents([
        ['is', 'dm'],
        ['sender', 'a@b.c'],
      ]),
    ).not.toThrow();
  });
});
