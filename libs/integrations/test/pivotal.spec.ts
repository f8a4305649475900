import { pivotal } from '../src/integrations/pivotal.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const xml = (eventType: string, description: string, story = '') =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<activity><event_type>${eventType}</event_type>` +
  `<project_id>42</project_id><description>${description}</description>` +
  `<stories><story><id>7</id>${story}</story></stories></activity>`;
const xmlRequest = (body: string) => jsonRequest(body, { headers: { 'content-type': 'application/xml' } });
const view = ' [(view)](https://www.pivotaltracker.com/s/projects/42/stories/7).';

const project = { name: 'Tracker', id: 42 };
const story = { id: 7, name: 'Sign up', url: 'https://www.pivotaltracker.com/story/show/7', story_type: 'feature' };
const info =
  '[Tracker](https://www.pivotaltracker.com/s/projects/42): [Sign up](https://www.pivotaltracker.com/story/show/7)';

describe('pivotal', () => {
  it('posts a v3 story update in the topic of the quoted story name', () => {
    expect(runWebhook(pivotal, xmlRequest(xml('story_update', 'Ada started &quot;Sign up&quot;')))).toEqual({
      kind: 'messages',
      messages: [{ stream: 'test', topic: 'Sign up', content: `Ada started "Sign up"${view}` }],
    });
    expect(runWebhook(pivotal, xmlRequest(xml('note_create', 'Ada added comment: "ok"')))).toMatchObject({
      messages: [{ topic: 'Comment added' }],
    });
  });

  it('quotes a v3 story’s description, with its estimate', () => {
    const body = xml(
      'story_create',
      'Ada added "Sign up"',
      '<description>Email and password</description><story_type>feature</story_type>' +
        '<current_state>unscheduled</current_state><estimate>3</estimate>',
    );
    expect(runWebhook(pivotal, xmlRequest(body))).toMatchObject({
      messages: [
        {
          topic: 'Sign up',
          content: `Ada added "Sign up" (unscheduled feature worth 3 story points):\n\n~~~ quote\nEmail and password\n~~~\n\n${view}`,
        },
      ],
    });
  });

  it('posts v5 activities with their changes, in the topic "#<id>: <name>"', () => {
    const body = {
      kind: 'story_update_activity',
      project,
      primary_resources: [story],
      performed_by: { name: 'Ada' },
      changes: [
        {
          kind: 'story',
          original_values: { current_state: 'started', estimate: null },
          new_values: { current_state: 'finished', estimate: 2 },
        },
        { kind: 'comment', new_values: { text: 'Done' } },
      ],
    };
    expect(runWebhook(pivotal, jsonRequest(body))).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: '#7: Sign up',
          content:
            `Ada updated ${info}:\n* state changed from **started** to **finished**\n` +
            '* estimate is now **2 points**\n* Comment added:\n~~~quote\nDone\n~~~\n',
        },
      ],
    });
  });

  it('answers Zulip’s error for a known v5 activity it has no message for, and refuses unknown ones', () => {
    const base = { project, primary_resources: [story], performed_by: { name: 'Ada' } };
    expect(runWebhook(pivotal, jsonRequest({ ...base, kind: 'task_create_activity' }))).toMatchObject({
      kind: 'error',
      error: { status: 400, message: 'Unable to handle Pivotal payload' },
    });
    expect(runWebhook(pivotal, jsonRequest({ ...base, kind: 'blocker_create_activity' }))).toMatchObject({
      kind: 'error',
      error: { status: 200, code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE' },
    });
  });
});
