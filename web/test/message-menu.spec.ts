import { menuItems, menuMove } from '../src/conversations/message-menu';

const me = 7;
const actions = (m: { sender_id: number; type: 'stream' | 'private' }, admin = false) =>
  menuItems(m, me, admin).map((i) => i.action);

describe('a message’s ⋯ menu', () => {
  it('offers copying the link, editing and deleting for one’s own message', () => {
    expect(actions({ sender_id: me, type: 'stream' })).toEqual(['copy-link', 'quote', 'edit', 'mark-unread', 'delete']);
    expect(actions({ sender_id: me, type: 'private' })).toEqual([
      'copy-link',
      'quote',
      'edit',
      'mark-unread',
      'delete',
    ]);
    expect(menuItems({ sender_id: me, type: 'stream' }, me, false).map((i) => i.label)).toEqual([
      'Copy link to message',
      'Quote and reply',
      'Edit message',
      'Mark as unread from here',
      'Delete message',
    ]);
  });

  it('offers moving someone else’s channel message, and deleting it only to an administrator', () => {
    expect(actions({ sender_id: 2, type: 'stream' })).toEqual(['copy-link', 'quote', 'move', 'mark-unread']);
    expect(actions({ sender_id: 2, type: 'stream' }, true)).toEqual([
      'copy-link',
      'quote',
      'move',
      'mark-unread',
      'delete',
    ]);
    expect(actions({ sender_id: 2, type: 'private' })).toEqual(['copy-link', 'quote', 'mark-unread']);
    expect(actions({ sender_id: 2, type: 'private' }, true)).toEqual(['copy-link', 'quote', 'mark-unread', 'delete']);
  });

  it('moves with the arrow keys, wrapping, and to the ends with Home and End', () => {
    expect(menuMove('ArrowDown', 0, 3)).toBe(1);
    expect(menuMove('ArrowDown', 2, 3)).toBe(0);
    expect(menuMove('ArrowUp', 0, 3)).toBe(2);
    expect(menuMove('ArrowUp', -1, 3)).toBe(2);
    expect(menuMove('ArrowDown', -1, 3)).toBe(0);
    expect(menuMove('Home', 2, 3)).toBe(0);
    expect(menuMove('End', 0, 3)).toBe(2);
    expect(menuMove('x', 0, 3)).toBeNull();
    expect(menuMove('ArrowDown', 0, 0)).toBeNull();
  });
});
