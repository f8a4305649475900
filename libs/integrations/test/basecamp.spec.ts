import { basecamp } from '../src/integrations/basecamp.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const creator = { name: 'Ada' };
const recording = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  app_url: 'https://3.basecamp.com/1/buckets/2/r/3',
  bucket: { name: 'Launch' },
  ...extra,
});
const run = (kind: string, rec: unknown, query: Record<string, string> = {}) =>
  runWebhook(basecamp, jsonRequest({ kind, creator, recording: rec }, { query }));

describe('basecamp', () => {
  it('posts in the topic of the project, with a period unless the title ends in punctuation', () => {
    expect(run('todo_created', recording('Book venue'))).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'Launch',
          content: 'Ada created the todo task [Book venue](https://3.basecamp.com/1/buckets/2/r/3).',
        },
      ],
    });
    expect(run('message_subject_changed', recording('Ready?'))).toMatchObject({
      messages: [{ content: 'Ada changed subject of the message [Ready?](https://3.basecamp.com/1/buckets/2/r/3)' }],
    });
    expect(run('document_active', recording('Plan'))).toMatchObject({
      messages: [{ content: 'Ada activated the document [Plan](https://3.basecamp.com/1/buckets/2/r/3).' }],
    });
  });

  it('names the question of an answer and the task of a comment', () => {
    const parent = { parent: { title: 'Who comes', app_url: 'https://3.basecamp.com/q/9' } };
    expect(run('question_answer_created', recording('', parent))).toMatchObject({
      messages: [
        {
          content:
            'Ada created the [answer](https://3.basecamp.com/1/buckets/2/r/3) of the question [Who comes](https://3.basecamp.com/q/9).',
        },
      ],
    });
    expect(run('comment_created', recording('', parent))).toMatchObject({
      messages: [
        {
          content:
            'Ada created the [comment](https://3.basecamp.com/1/buckets/2/r/3) of the task [Who comes](https://3.basecamp.com/q/9).',
        },
      ],
    });
  });

  it('filters by the kind of recording, and refuses the events it does not know', () => {
    expect(run('todo_completed', recording('x'), { only_events: '["document"]' })).toEqual({
      kind: 'messages',
      messages: [],
    });
    expect(run('vault_created', recording('x'))).toMatchObject({
      kind: 'error',
      error: {
        status: 200,
        message: "The 'vault_created' event isn't currently supported by the Basecamp webhook; ignoring",
      },
    });
  });
});
