import { clubhouse } from '../src/integrations/clubhouse.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const run = (body: unknown, query: Record<string, string> = {}) => runWebhook(clubhouse, jsonRequest(body, { query }));
const story = { id: 50, entity_type: 'story', name: 'Dark mode', app_url: 'https://app.shortcut.com/acme/story/50' };
const storyLink = '[Dark mode](https://app.shortcut.com/acme/story/50)';

describe('clubhouse', () => {
  it('posts a new story with its type, in the topic of its name, with the event type', () => {
    const body = { primary_id: 50, actions: [{ ...story, action: 'create', story_type: 'feature' }], references: [] };
    expect(run(body)).toEqual({
      kind: 'messages',
      messages: [
        { stream: 'test', topic: 'Dark mode', content: `New story ${storyLink} of type **feature** was created.` },
      ],
    });
    expect(run(body, { only_events: '["story_update_*"]' })).toEqual({ kind: 'messages', messages: [] });
  });

  it('names workflow states from the references', () => {
    const body = {
      primary_id: 50,
      actions: [{ ...story, action: 'update', changes: { workflow_state_id: { old: 1, new: 2 } } }],
      references: [
        { id: 1, entity_type: 'workflow-state', name: 'Backlog' },
        { id: 2, entity_type: 'workflow-state', name: 'Done' },
      ],
    };
    expect(run(body)).toMatchObject({
      messages: [
        { topic: 'Dark mode', content: `State of the story ${storyLink} was changed from **Backlog** to **Done**.` },
      ],
    });
  });

  it('quotes a comment on an epic, under the epic’s name', () => {
    const body = {
      primary_id: 9,
      actions: [
        { id: 9, entity_type: 'epic-comment', action: 'create', text: 'Ship it' },
        { id: 3, entity_type: 'epic', action: 'update', name: 'Q3 launch' },
      ],
      references: [],
    };
    expect(run(body)).toMatchObject({
      messages: [
        { topic: 'Q3 launch', content: 'New comment added to the epic **Q3 launch**:\n``` quote\nShip it\n```' },
      ],
    });
  });

  it('posts a linked pull request on each story it was linked to', () => {
    const body = {
      primary_id: 77,
      actions: [
        { id: 77, entity_type: 'pull-request', action: 'create', number: 12, url: 'https://github.com/a/b/pull/12' },
        { ...story, action: 'update', changes: { pull_request_ids: { adds: [77] } } },
      ],
      references: [],
    };
    expect(run(body)).toMatchObject({
      messages: [
        {
          topic: 'Dark mode',
          content: `New GitHub PR [#12](https://github.com/a/b/pull/12) opened for story ${storyLink}.`,
        },
      ],
    });
  });

  it('posts a batch update of several attributes as one sentence per story', () => {
    const body = {
      actions: [
        {
          ...story,
          action: 'update',
          changes: { story_type: { old: 'feature', new: 'bug' }, epic_id: { old: null, new: 4 } },
        },
      ],
      references: [{ id: 4, entity_type: 'epic', name: 'Polish' }],
    };
    expect(run(body)).toMatchObject({
      messages: [
        {
          topic: 'Dark mode',
          content: `The story ${storyLink} was moved from Epic **None** to **Polish**, and changed from type **feature** to **bug**.`,
        },
      ],
    });
  });

  it('posts nothing for an empty body, an incomplete task, a removed label or an edited comment', () => {
    expect(run('null')).toEqual({ kind: 'messages', messages: [] });
    const task = {
      primary_id: 5,
      actions: [
        {
          id: 5,
          entity_type: 'story-task',
          action: 'update',
          description: 'QA',
          story_id: 50,
          changes: { complete: { new: false } },
        },
      ],
      references: [story],
    };
    expect(run(task)).toEqual({ kind: 'messages', messages: [] });
    const label = {
      primary_id: 50,
      actions: [{ ...story, action: 'update', changes: { label_ids: { removes: [1] } } }],
      references: [],
    };
    expect(run(label)).toEqual({ kind: 'messages', messages: [] });
    const edit = {
      primary_id: 6,
      actions: [{ id: 6, entity_type: 'story-comment', action: 'update', text: 'x' }],
      references: [],
    };
    expect(run(edit)).toEqual({ kind: 'messages', messages: [] });
  });

  it('answers that an event it has no message for is not supported', () => {
    const body = {
      primary_id: 8,
      actions: [{ id: 8, entity_type: 'project', action: 'create', name: 'P' }],
      references: [],
    };
    expect(run(body)).toMatchObject({
      kind: 'error',
      error: {
        status: 200,
        message: "The 'project_create' event isn't currently supported by the Clubhouse webhook; ignoring",
      },
    });
  });
});
