import { readFromHere, unreadEntryOf } from '../src/conversations/mark-unread';
import type { Message } from '../src/store/model';

const m = (id: number, extra: Partial<Message> = {}): Message =>
  ({
    id,
    sender_id: 2,
    sender_full_name: 'Iago',
    content: '',
    timestamp: 0,
    type: 'stream',
    stream_id: 3,
    subject: 'plans',
    display_recipient: 'Verona',
    ...extra,
  }) as Message;

describe('mark as unread from here', () => {
  it('takes this message and the later ones that are read', () => {
    const list = [m(1), m(2), m(3), m(4)];
    expect(readFromHere(list, 2, new Set([3])).map((x) => x.id)).toEqual([2, 4]);
    expect(readFromHere(list, 5, new Set()).map((x) => x.id)).toEqual([]);
  });

  it('counts each where the server’s event would: channel and topic, or the DM, and mentions', () => {
    expect(unreadEntryOf(m(1), 1)).toEqual({ key: 's:3', streamId: 3, topic: 'plans' });
    expect(unreadEntryOf(m(1, { flags: ['mentioned'] }), 1)).toEqual({
      key: 's:3',
      streamId: 3,
      topic: 'plans',
      mentioned: true,
    });
    const dm = m(2, {
      type: 'private',
      stream_id: undefined,
      display_recipient: [
        { id: 1, full_name: 'Me' },
        { id: 2, full_name: 'Iago' },
      ],
    });
    expect(unreadEntryOf(dm, 1)).toEqual({ key: 'd:2' });
  });
});
