import { newOptionData, pollOf, questionData, voteData, widgetTypeOf, type Submessage } from '../src/widgets/poll-data';

// Hamlet (10) sends the poll; Othello (11) and Cordelia (12) read it. The sequences are those Zulip's poll widget
// sends: the server's widget submessage first, then votes, new options and question edits in order.
const HAMLET = 10;
const OTHELLO = 11;
const CORDELIA = 12;
const widget = (question: string, options: string[]): Submessage => ({
  sender_id: HAMLET,
  msg_type: 'widget',
  content: JSON.stringify({ widget_type: 'poll', extra_data: { question, options } }),
});
const update = (sender_id: number, data: object): Submessage => ({
  sender_id,
  msg_type: 'widget',
  content: JSON.stringify(data),
});
const summary = (subs: Submessage[]) => {
  const poll = pollOf(HAMLET, subs);
  return poll && { question: poll.question, options: poll.options.map((o) => [o.key, o.option, o.voters]) };
};

describe('poll state from submessages', () => {
  it('starts with the question and the options the message was sent with', () => {
    expect(summary([widget('Lunch?', ['Pizza', 'Sushi'])])).toEqual({
      question: 'Lunch?',
      options: [
        ['canned,0', 'Pizza', []],
        ['canned,1', 'Sushi', []],
      ],
    });
  });

  it('is not a poll without a poll widget submessage first', () => {
    expect(pollOf(HAMLET, [])).toBeNull();
    expect(pollOf(HAMLET, undefined)).toBeNull();
    const todo = { sender_id: HAMLET, msg_type: 'widget', content: '{"widget_type":"todo","extra_data":{}}' };
    expect(widgetTypeOf([todo])).toBe('todo');
    expect(pollOf(HAMLET, [todo])).toBeNull();
    expect(pollOf(HAMLET, [{ sender_id: HAMLET, msg_type: 'widget', content: 'not json' }])).toBeNull();
  });

  it('counts votes, lets a voter take a vote back, and counts each voter once', () => {
    const subs = [
      widget('Lunch?', ['Pizza', 'Sushi']),
      update(OTHELLO, { type: 'vote', key: 'canned,1', vote: 1 }),
      update(CORDELIA, { type: 'vote', key: 'canned,1', vote: 1 }),
      update(OTHELLO, { type: 'vote', key: 'canned,1', vote: 1 }),
      update(HAMLET, { type: 'vote', key: 'canned,0', vote: 1 }),
      update(CORDELIA, { type: 'vote', key: 'canned,1', vote: -1 }),
    ];
    expect(summary(subs)?.options).toEqual([
      ['canned,0', 'Pizza', [HAMLET]],
      ['canned,1', 'Sushi', [OTHELLO]],
    ]);
  });

  it("adds readers' options under their own keys, once per text, and lets people vote for them", () => {
    const subs = [
      widget('Lunch?', ['Pizza', 'Pizza']),
      update(OTHELLO, { type: 'new_option', idx: 1, option: 'Soup' }),
      update(CORDELIA, { type: 'new_option', idx: 1, option: 'Soup' }),
      update(CORDELIA, { type: 'new_option', idx: 2, option: 'Salad' }),
      update(HAMLET, { type: 'vote', key: `${CORDELIA},2`, vote: 1 }),
      update(HAMLET, { type: 'new_option', idx: 5000, option: 'Too far' }),
    ];
    expect(summary(subs)?.options).toEqual([
      ['canned,0', 'Pizza', []],
      [`${OTHELLO},1`, 'Soup', []],
      [`${CORDELIA},2`, 'Salad', [HAMLET]],
    ]);
  });

  it('ignores votes for unknown options and malformed updates', () => {
    const subs = [
      widget('Lunch?', ['Pizza']),
      update(OTHELLO, { type: 'vote', key: 'canned,7', vote: 1 }),
      update(OTHELLO, { type: 'vote', key: 'canned,0', vote: 3 }),
      update(OTHELLO, { type: 'dance' }),
      { sender_id: OTHELLO, msg_type: 'widget', content: '{' },
    ];
    expect(summary(subs)?.options).toEqual([['canned,0', 'Pizza', []]]);
  });

  it("changes the question only on its author's word", () => {
    const subs = [
      widget('Lunch?', ['Pizza']),
      update(OTHELLO, { type: 'question', question: 'Dinner?' }),
      update(HAMLET, { type: 'question', question: 'Lunch on Friday?' }),
    ];
    expect(summary(subs)?.question).toBe('Lunch on Friday?');
  });
});

describe('poll updates to send', () => {
  const poll = pollOf(HAMLET, [
    widget('Lunch?', ['Pizza', 'Sushi']),
    update(OTHELLO, { type: 'vote', key: 'canned,1', vote: 1 }),
    update(OTHELLO, { type: 'new_option', idx: 1, option: 'Soup' }),
    update(OTHELLO, { type: 'new_option', idx: 4, option: 'Salad' }),
  ])!;

  it('toggles the vote of the one who clicks', () => {
    expect(voteData(poll, 'canned,1', OTHELLO)).toEqual({ type: 'vote', key: 'canned,1', vote: -1 });
    expect(voteData(poll, 'canned,1', CORDELIA)).toEqual({ type: 'vote', key: 'canned,1', vote: 1 });
  });

  it("numbers a new option after the adder's earlier ones, and refuses blanks and duplicates", () => {
    expect(newOptionData(poll, OTHELLO, ' Tacos ')).toEqual({ type: 'new_option', idx: 5, option: 'Tacos' });
    expect(newOptionData(poll, CORDELIA, 'Tacos')).toEqual({ type: 'new_option', idx: 1, option: 'Tacos' });
    expect(newOptionData(poll, CORDELIA, '   ')).toBeNull();
    expect(newOptionData(poll, CORDELIA, 'Sushi')).toBeNull();
  });

  it('lets only the author send a new question', () => {
    expect(questionData(poll, HAMLET, 'Dinner?')).toEqual({ type: 'question', question: 'Dinner?' });
    expect(questionData(poll, OTHELLO, 'Dinner?')).toBeNull();
    expect(questionData(poll, HAMLET, ' ')).toBeNull();
  });
});
