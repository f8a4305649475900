import { linear } from '../src/integrations/linear.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const issue = {
  id: 'i-1',
  number: 12,
  title: 'Crash on save',
  team: { name: 'Core' },
  priorityLabel: 'High',
  state: { name: 'Todo' },
};
const url = 'https://linear.app/acme/issue/CORE-12';
const run = (body: unknown) => runWebhook(linear, jsonRequest(body));

describe('linear', () => {
  it('posts a created issue in the topic "Issue: <title>", with its description quoted', () => {
    expect(run({ type: 'Issue', action: 'create', url, data: { ...issue, description: 'Steps: save' } })).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'Issue: Crash on save',
          content: `[Issue](${url}) was created in team Core:\n~~~ quote\nSteps: save\n~~~\n\nPriority: High, Status: Todo.`,
        },
      ],
    });
  });

  it('words sub-issues, removals and comments', () => {
    expect(
      run({
        type: 'Issue',
        action: 'update',
        url,
        data: { ...issue, parentId: 'p', assignee: { name: 'Ada' }, priorityLabel: 'No priority' },
      }),
    ).toMatchObject({
      messages: [
        {
          topic: 'Sub-Issue: Crash on save',
          content: `[Sub-Issue](${url}) was updated in team Core.\nAssignee: Ada, Status: Todo.`,
        },
      ],
    });
    expect(run({ type: 'Issue', action: 'remove', url, data: issue })).toMatchObject({
      messages: [{ content: 'This issue has been removed from team Core.' }],
    });
    expect(
      run({
        type: 'Comment',
        action: 'create',
        url,
        data: { user: { name: 'Ada' }, body: 'On it', issue: { title: 'Crash on save' } },
      }),
    ).toMatchObject({
      messages: [
        {
          topic: 'Issue: Crash on save',
          content: `Ada [commented](${url}) on issue **Crash on save**:\n~~~ quote\nOn it\n~~~\n`,
        },
      ],
    });
  });

  it('posts nothing for labels, projects, cycles and reactions, and refuses new kinds of events', () => {
    expect(run({ type: 'Cycle', action: 'create', data: {} })).toEqual({ kind: 'messages', messages: [] });
    expect(run({ type: 'Document', action: 'create', data: {} })).toMatchObject({
      kind: 'error',
      error: {
        status: 200,
        message: "The 'Document:create' event isn't currently supported by the Linear webhook; ignoring",
      },
    });
  });
});
