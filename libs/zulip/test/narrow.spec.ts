import {
  canMatchLocally,
  canonicalOperator,
  eventNarrowProblem,
  messageMatchesNarrow,
  type NarrowMessage,
  type NarrowTerm,
} from '@confab/zulip';

const hamlet = { id: 10, email: 'hamlet@zulip.com' };
const othello = { id: 11, email: 'othello@zulip.com' };
const iago = { id: 12, email: 'iago@zulip.com' };

const channelMessage: NarrowMessage = {
  id: 1,
  type: 'stream',
  stream_id: 5,
  display_recipient: 'Denmark',
  subject: 'Lunch plans',
  sender_id: 11,
  sender_email: 'Othello@zulip.com',
  reactions: [],
};
const dm: NarrowMessage = {
  id: 2,
  type: 'private',
  display_recipient: [hamlet, othello],
  subject: '',
  sender_id: 11,
  sender_email: othello.email,
  reactions: [{}],
};
const groupDm: NarrowMessage = { ...dm, id: 3, display_recipient: [hamlet, othello, iago] };

const matches = (terms: NarrowTerm[], message: NarrowMessage, flags: string[] = []) =>
  messageMatchesNarrow(terms, message, flags, { self: hamlet.id });

describe('the narrow grammar', () => {
  it('folds Zulip’s synonyms', () => {
    expect(['stream', 'subject', 'pm-with', 'from', 'group-pm-with', 'streams'].map(canonicalOperator)).toEqual([
      'channel',
      'topic',
      'dm',
      'sender',
      'dm-including',
      'channels',
    ]);
  });

  it('says what an event queue cannot filter on, with Zulip’s texts', () => {
    expect(eventNarrowProblem([{ operator: 'search', operand: 'x' }])).toBe('Operator search not supported.');
    expect(eventNarrowProblem([{ operator: 'is', operand: 'followed' }])).toBe('Operand followed not supported.');
    expect(eventNarrowProblem([{ operator: 'stream', operand: 'Denmark' }])).toBeNull();
  });

  it('knows which narrows it decides without the server', () => {
    expect(
      canMatchLocally([
        { operator: 'channel', operand: 5 },
        { operator: 'near', operand: 3 },
      ]),
    ).toBe(true);
    expect(canMatchLocally([{ operator: 'search', operand: 'x' }])).toBe(false);
    expect(canMatchLocally([{ operator: 'has', operand: 'link' }])).toBe(false);
  });
});

describe('the narrow predicate (as GET /messages reads narrows)', () => {
  it('channel by id or name, topic case-insensitively, sender by id or email', () => {
    expect(matches([{ operator: 'channel', operand: 5 }], channelMessage)).toBe(true);
    expect(matches([{ operator: 'stream', operand: 'denmark' }], channelMessage)).toBe(true);
    expect(matches([{ operator: 'channel', operand: 5 }], dm)).toBe(false);
    expect(matches([{ operator: 'topic', operand: 'LUNCH PLANS' }], channelMessage)).toBe(true);
    expect(matches([{ operator: 'topic', operand: 'lunch' }], channelMessage)).toBe(false);
    expect(matches([{ operator: 'sender', operand: 11 }], channelMessage)).toBe(true);
    expect(matches([{ operator: 'sender', operand: 'othello@ZULIP.com' }], channelMessage)).toBe(true);
  });

  it('dm is the exact conversation (the user always in it), dm-including any that includes the person', () => {
    expect(matches([{ operator: 'dm', operand: [11] }], dm)).toBe(true);
    expect(matches([{ operator: 'dm', operand: 'othello@zulip.com' }], dm)).toBe(true);
    expect(matches([{ operator: 'dm', operand: [11] }], groupDm)).toBe(false);
    expect(matches([{ operator: 'dm', operand: [12, 11] }], groupDm)).toBe(true);
    expect(matches([{ operator: 'dm-including', operand: 11 }], groupDm)).toBe(true);
    expect(matches([{ operator: 'dm-including', operand: 12 }], dm)).toBe(false);
  });

  it('is:, has:reaction, id, negation, and the operators that only place the view', () => {
    expect(matches([{ operator: 'is', operand: 'dm' }], dm)).toBe(true);
    expect(matches([{ operator: 'is', operand: 'starred' }], dm, ['starred'])).toBe(true);
    expect(matches([{ operator: 'is', operand: 'unread' }], dm, ['read'])).toBe(false);
    expect(matches([{ operator: 'is', operand: 'mentioned' }], dm, ['group_mentioned'])).toBe(true);
    expect(matches([{ operator: 'is', operand: 'alerted' }], dm, ['mentioned'])).toBe(false);
    expect(matches([{ operator: 'is', operand: 'alerted' }], dm, ['has_alert_word'])).toBe(true);
    expect(matches([{ operator: 'is', operand: 'resolved' }], { ...channelMessage, subject: '✔ done' })).toBe(true);
    expect(matches([{ operator: 'has', operand: 'reaction' }], dm)).toBe(true);
    expect(matches([{ operator: 'id', operand: 2 }], dm)).toBe(true);
    expect(matches([{ operator: 'channel', operand: 5, negated: true }], dm)).toBe(true);
    expect(
      matches(
        [
          { operator: 'near', operand: 99 },
          { operator: 'dm', operand: [11] },
        ],
        dm,
      ),
    ).toBe(true);
  });
});

describe('the narrow predicate of event queues (Zulip’s build_narrow_predicate)', () => {
  const queue = (terms: NarrowTerm[], message: NarrowMessage, flags: string[] = []) =>
    messageMatchesNarrow(terms, message, flags, { eventQueue: true });

  it('also matches one word of a topic, and reads is:mentioned and is:alerted as the mentioned flag', () => {
    expect(queue([{ operator: 'topic', operand: 'lunch' }], channelMessage)).toBe(true);
    expect(queue([{ operator: 'exact-topic', operand: 'lunch plans' }], channelMessage)).toBe(false);
    expect(queue([{ operator: 'is', operand: 'alerted' }], dm, ['mentioned'])).toBe(true);
    expect(queue([{ operator: 'is', operand: 'mentioned' }], dm, ['group_mentioned'])).toBe(false);
  });
});
