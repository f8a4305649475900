import { composeTakes, quoteText, unusedFence, withQuote } from '../src/compose/quote-text';
import type { Message } from '../src/store/model';

const names = {
  channelName: (id: number) => (id === 3 ? 'Verona' : undefined),
  userName: (id: number) => ({ 1: 'Me', 2: 'Iago', 4: 'Othello' })[id],
};
const message = (extra: Partial<Message>): Message =>
  ({
    id: 77,
    sender_id: 2,
    sender_full_name: 'Iago',
    content: '<p>hi</p>',
    timestamp: 0,
    type: 'stream',
    stream_id: 3,
    subject: 'plans',
    display_recipient: 'Verona',
    ...extra,
  }) as Message;

describe('quote and reply (Zulip’s quote_message)', () => {
  it('quotes a channel message with its sender, a link to it and its channel and topic', () => {
    expect(quoteText(message({}), 'Meet at *noon*', 'http://x/#narrow/near/77', names)).toBe(
      '@_**Iago|2** [said](http://x/#narrow/near/77) in #**Verona>plans**:\n```quote\nMeet at *noon*\n```\n',
    );
  });

  it('quotes a direct message with the people it was said to', () => {
    const dm = message({
      type: 'private',
      stream_id: undefined,
      display_recipient: [
        { id: 1, full_name: 'Me' },
        { id: 2, full_name: 'Iago' },
        { id: 4, full_name: 'Othello' },
      ],
    });
    expect(quoteText(dm, 'hello', 'L', names)).toBe(
      '@_**Iago|2** [said](L) to @_**Me|1**, @_**Othello|4**:\n```quote\nhello\n```\n',
    );
  });

  it('uses a fence longer than any inside the quoted text', () => {
    expect(unusedFence('plain')).toBe('```');
    expect(unusedFence('```js\ncode\n```')).toBe('````');
    expect(unusedFence('  `````\nx')).toBe('``````');
    expect(quoteText(message({}), '```\ncode\n```', 'L', names)).toContain('\n````quote\n```\ncode\n```\n````\n');
  });

  it('goes on a line of its own after what the box holds', () => {
    expect(withQuote('', 'Q\n')).toBe('Q\n');
    expect(withQuote('draft', 'Q\n')).toBe('draft\nQ\n');
    expect(withQuote('draft\n', 'Q\n')).toBe('draft\nQ\n');
  });

  it('goes into the box of its conversation: its topic, its channel’s box, or its DM', () => {
    const topic = { kind: 'stream' as const, streamId: 3, topic: 'plans' };
    expect(composeTakes(topic, topic, 1)).toBe(true);
    expect(composeTakes({ kind: 'stream', streamId: 3 }, topic, 1)).toBe(true);
    expect(composeTakes({ kind: 'stream', streamId: 3, topic: 'other' }, topic, 1)).toBe(false);
    expect(composeTakes({ kind: 'stream', streamId: 5 }, topic, 1)).toBe(false);
    expect(composeTakes({ kind: 'dm', userIds: [2] }, { kind: 'dm', userIds: [2] }, 1)).toBe(true);
    expect(composeTakes({ kind: 'dm', userIds: [2, 4] }, { kind: 'dm', userIds: [2] }, 1)).toBe(false);
  });
});
