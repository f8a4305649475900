import { taiga } from '../src/integrations/taiga.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const by = { full_name: 'Ada Lovelace', permalink: 'https://tree.taiga.io/profile/ada' };
const ada = '[Ada Lovelace](https://tree.taiga.io/profile/ada)';

const run = (body: unknown) => runWebhook(taiga, jsonRequest(body));
const contentOf = (body: unknown) => {
  const outcome = run(body);
  if (outcome.kind !== 'messages') throw new Error(`no messages: ${JSON.stringify(outcome)}`);
  return outcome.messages.map((m) => [m.topic, m.content]);
};

describe('taiga', () => {
  it('posts a created user story in the topic "General" when it is in no sprint', () => {
    const body = { action: 'create', type: 'userstory', by, data: { subject: 'Export to CSV' } };
    expect(contentOf(body)).toEqual([['General', `${ada} created user story **Export to CSV**.\n`]]);
  });

  it("links the item when it has a permalink, and uses the sprint's name as the topic", () => {
    const body = {
      action: 'delete',
      type: 'task',
      by,
      data: { subject: 'Write docs', permalink: 'https://tree.taiga.io/t/7', milestone: { name: 'Sprint 3' } },
    };
    expect(contentOf(body)).toEqual([['Sprint 3', `${ada} deleted task [Write docs](https://tree.taiga.io/t/7).\n`]]);
  });

  it('lists every change of one webhook, sorted, with None where a value is null', () => {
    const body = {
      action: 'change',
      type: 'issue',
      by,
      data: { subject: 'Crash on start' },
      change: {
        diff: {
          status: { from: 'New', to: null },
          assigned_to: { from: null, to: 'Grace' },
          is_blocked: { from: false, to: true },
          estimated_finish: { from: '2024-01-01', to: '2024-01-01' },
          tags: { from: [], to: ['x'] },
        },
        comment: 'looking into it',
      },
    };
    expect(contentOf(body)).toEqual([
      [
        'General',
        `${ada} assigned issue **Crash on start** to Grace.\n` +
          `${ada} blocked issue **Crash on start**.\n` +
          `${ada} changed status of issue **Crash on start** from New to None.\n` +
          `${ada} commented on issue **Crash on start**.\n`,
      ],
    ]);
  });

  it('words sprint dates, renames and related user stories as Zulip does', () => {
    expect(
      contentOf({
        action: 'change',
        type: 'milestone',
        by,
        data: { name: 'Sprint 1' },
        change: { diff: { estimated_start: { from: null, to: '2024-02-01' } }, comment: '' },
      }),
    ).toEqual([['General', `${ada} changed estimated start of sprint **Sprint 1** to 2024-02-01.\n`]]);
    expect(
      contentOf({
        action: 'create',
        type: 'relateduserstory',
        by,
        data: { epic: { subject: 'Epic' }, user_story: { subject: 'Story', permalink: 'https://t/us/1' } },
      }),
    ).toEqual([['General', `${ada} added a related user story [Story](https://t/us/1) to the epic **Epic**.\n`]]);
  });

  it('answers the test webhook', () => {
    expect(contentOf({ action: 'test', type: 'test', by, data: {} })).toEqual([
      ['General', `${ada} triggered a test of the Taiga integration.\n`],
    ]);
  });

  it('answers that the payload is not Taiga’s without the acting user', () => {
    expect(run({ action: 'create', type: 'task', data: { subject: 'x' } })).toMatchObject({
      kind: 'error',
      error: { status: 400, message: 'Unable to parse request: Did Taiga generate this event?' },
    });
  });
});
