import { pollOf } from '../src/widgets/poll-data';
import { addPending, pendingUpdates, withPending } from '../src/widgets/pending';
import { todoOf } from '../src/widgets/todo-data';

const poll = {
  id: 10,
  sender_id: 1,
  msg_type: 'widget',
  content: JSON.stringify({ widget_type: 'poll', extra_data: { question: 'Lunch?', options: ['Pizza', 'Sushi'] } }),
};
const todo = {
  id: 10,
  sender_id: 1,
  msg_type: 'widget',
  content: JSON.stringify({
    widget_type: 'todo',
    extra_data: { task_list_title: 'Day', tasks: [{ task: 'Pack', desc: '' }] },
  }),
};
const vote = JSON.stringify({ type: 'vote', key: 'canned,1', vote: 1 });
const strike = JSON.stringify({ type: 'strike', key: '0,canned' });
const pending = (content: string, after = 10, token = 1) => ({
  token,
  sender_id: 7,
  msg_type: 'widget',
  content,
  after,
});

describe('optimistic widget updates', () => {
  it('shows a vote at once, and once only when the server’s echo comes', () => {
    const before = withPending([poll], [pending(vote)]);
    expect(pollOf(1, before)?.options[1]?.voters).toEqual([7]);
    const echoed = [poll, { id: 11, sender_id: 7, msg_type: 'widget', content: vote }];
    expect(withPending(echoed, [pending(vote)])).toBe(echoed);
    expect(pollOf(1, withPending(echoed, [pending(vote)]))?.options[1]?.voters).toEqual([7]);
  });

  it('does not apply a check twice (a strike toggles), and a second check waits for its own echo', () => {
    expect(todoOf(1, withPending([todo], [pending(strike)]))?.tasks[0]?.completed).toBe(true);
    const one = [todo, { id: 12, sender_id: 7, msg_type: 'widget', content: strike }];
    expect(todoOf(1, withPending(one, [pending(strike)]))?.tasks[0]?.completed).toBe(true);
    // Checked and unchecked again before either came back: the first echo confirms the first only.
    const both = [pending(strike, 10, 1), pending(strike, 10, 2)];
    expect(todoOf(1, withPending([todo], both))?.tasks[0]?.completed).toBe(false);
    expect(todoOf(1, withPending(one, both))?.tasks[0]?.completed).toBe(false);
    expect(withPending(one, both)).toHaveLength(3);
  });

  it('takes no echo from before it was sent, nor another person’s same update', () => {
    const old = [poll, { id: 9, sender_id: 7, msg_type: 'widget', content: vote }];
    expect(withPending(old, [pending(vote)])).toHaveLength(3);
    const theirs = [poll, { id: 11, sender_id: 8, msg_type: 'widget', content: vote }];
    expect(withPending(theirs, [pending(vote)])).toHaveLength(3);
  });

  it('forgets the updates the server has echoed when the next one is sent', () => {
    addPending(6, { sender_id: 7, msg_type: 'widget', content: vote }, [poll]);
    const echoed = [poll, { id: 11, sender_id: 7, msg_type: 'widget', content: vote }];
    addPending(6, { sender_id: 7, msg_type: 'widget', content: strike }, echoed);
    expect(pendingUpdates.value.get(6)?.map((p) => p.content)).toEqual([strike]);
  });

  it('takes a refused update back', () => {
    const takeBack = addPending(5, { sender_id: 7, msg_type: 'widget', content: vote }, [poll]);
    expect(pendingUpdates.value.get(5)?.map((p) => p.after)).toEqual([10]);
    takeBack();
    expect(pendingUpdates.value.has(5)).toBe(false);
  });
});
