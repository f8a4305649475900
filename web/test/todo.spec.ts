import { newTaskData, strikeData, titleData, todoOf } from '../src/widgets/todo-data';
import type { Submessage } from '../src/widgets/poll-data';

// Hamlet (10) sends the list; Othello (11) reads it. Updates as Zulip's todo widget sends them.
const HAMLET = 10;
const OTHELLO = 11;
const widget = (title: string, tasks: { task: string; desc: string }[]): Submessage => ({
  sender_id: HAMLET,
  msg_type: 'widget',
  content: JSON.stringify({ widget_type: 'todo', extra_data: { task_list_title: title, tasks } }),
});
const update = (sender_id: number, data: object): Submessage => ({
  sender_id,
  msg_type: 'widget',
  content: JSON.stringify(data),
});
const rows = (subs: Submessage[]) => todoOf(HAMLET, subs)?.tasks.map((t) => [t.key, t.task, t.desc, t.completed]);

describe('to-do list state from submessages', () => {
  const sent = widget('Moving day', [
    { task: 'Pack books', desc: 'the heavy ones first' },
    { task: 'Return keys', desc: '' },
  ]);

  it('starts with the title and the tasks the message was sent with, none done', () => {
    expect(todoOf(HAMLET, [sent])?.title).toBe('Moving day');
    expect(rows([sent])).toEqual([
      ['0,canned', 'Pack books', 'the heavy ones first', false],
      ['1,canned', 'Return keys', '', false],
    ]);
    expect(todoOf(HAMLET, [widget('', [])])?.title).toBe('Task list');
  });

  it('is not a to-do list without a todo widget first', () => {
    const poll = { sender_id: HAMLET, msg_type: 'widget', content: '{"widget_type":"poll","extra_data":{}}' };
    expect(todoOf(HAMLET, [poll])).toBeNull();
    expect(todoOf(HAMLET, [])).toBeNull();
  });

  it('toggles a task on each strike, adds new tasks once per name, and ignores bad updates', () => {
    const subs = [
      sent,
      update(OTHELLO, { type: 'strike', key: '1,canned' }),
      update(OTHELLO, { type: 'strike', key: '0,canned' }),
      update(HAMLET, { type: 'strike', key: '0,canned' }),
      update(OTHELLO, { type: 'new_task', key: 2, task: 'Clean oven', desc: '', completed: false }),
      update(HAMLET, { type: 'new_task', key: 1, task: 'Clean oven', desc: 'again', completed: false }),
      update(HAMLET, { type: 'new_task', key: 'x', task: 'Bad', desc: '', completed: false }),
      update(HAMLET, { type: 'strike', key: '9,canned' }),
      update(HAMLET, { type: 'strike', key: `2,${OTHELLO}` }),
    ];
    expect(rows(subs)).toEqual([
      ['0,canned', 'Pack books', 'the heavy ones first', false],
      ['1,canned', 'Return keys', '', true],
      [`2,${OTHELLO}`, 'Clean oven', '', true],
    ]);
  });

  it("changes the title only on its author's word", () => {
    const subs = [
      sent,
      update(OTHELLO, { type: 'new_task_list_title', title: 'Mine' }),
      update(HAMLET, { type: 'new_task_list_title', title: 'Moving week' }),
    ];
    expect(todoOf(HAMLET, subs)?.title).toBe('Moving week');
  });

  it('builds the updates to send', () => {
    const list = todoOf(HAMLET, [
      sent,
      update(OTHELLO, { type: 'new_task', key: 3, task: 'Clean oven', desc: '', completed: false }),
    ])!;
    expect(newTaskData(list, OTHELLO, ' Sweep ', ' floors ')).toEqual({
      type: 'new_task',
      key: 4,
      task: 'Sweep',
      desc: 'floors',
      completed: false,
    });
    expect(newTaskData(list, HAMLET, 'Sweep', '')?.key).toBe(1);
    expect(newTaskData(list, HAMLET, 'Return keys', '')).toBeNull();
    expect(newTaskData(list, HAMLET, ' ', '')).toBeNull();
    expect(strikeData('0,canned')).toEqual({ type: 'strike', key: '0,canned' });
    expect(titleData(list, HAMLET, 'Moving week')).toEqual({ type: 'new_task_list_title', title: 'Moving week' });
    expect(titleData(list, OTHELLO, 'Mine')).toBeNull();
  });
});
