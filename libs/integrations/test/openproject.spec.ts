import { formatDuration, openproject } from '../src/integrations/openproject.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const run = (body: unknown) => runWebhook(openproject, jsonRequest(body));
const user = { name: 'Ada' };

describe('openproject', () => {
  it('posts projects in their own topic, naming the parent of a sub-project', () => {
    expect(
      run({ action: 'project:created', project: { name: 'Mobile', _embedded: { parent: { name: 'Apps' } } } }),
    ).toEqual({
      kind: 'messages',
      messages: [
        { stream: 'test', topic: 'Mobile', content: 'Project **Mobile** was created as a sub-project of **Apps**.' },
      ],
    });
    expect(
      run({ action: 'project:updated', project: { name: 'Mobile', _embedded: { parent: { name: 'Apps' } } } }),
    ).toMatchObject({
      messages: [{ content: 'Project **Mobile** was updated.' }],
    });
  });

  it('posts work packages and attachments in the topic of their project', () => {
    const workPackage = {
      subject: 'Login screen',
      _embedded: { type: { name: 'Task' }, author: user, project: { name: 'Mobile' } },
    };
    expect(run({ action: 'work_package:updated', work_package: workPackage })).toMatchObject({
      messages: [{ topic: 'Mobile', content: '**Login screen** (work package **Task**) was updated by **Ada**.' }],
    });
    const attachment = {
      fileName: 'mock.png',
      _embedded: { author: user, container: { subject: 'Login screen', _links: { project: { title: 'Mobile' } } } },
    };
    expect(run({ action: 'attachment:created', attachment })).toMatchObject({
      messages: [{ topic: 'Mobile', content: '**Ada** uploaded **mock.png** in **Login screen**.' }],
    });
  });

  it('words logged time from its ISO 8601 duration', () => {
    const entry = (hours: string, embedded: Record<string, unknown> = {}) => ({
      action: 'time_entry:created',
      time_entry: { hours, _embedded: { user, project: { name: 'Mobile' }, ...embedded } },
    });
    expect(run(entry('PT2H30M', { workPackage: { subject: 'Login screen' } }))).toMatchObject({
      messages: [{ content: '**Ada** logged **2 hours and 30 minutes** on **Login screen**.' }],
    });
    expect(run(entry('P1DT1M'))).toMatchObject({
      messages: [{ content: '**Ada** logged **1 day and 1 minute** on **Mobile**.' }],
    });
    expect(run(entry('about an hour'))).toMatchObject({
      messages: [{ content: '**Ada** logged a time entry on **Mobile**.' }],
    });
    expect(formatDuration('PT1H2M3S')).toBe('1 hour, 2 minutes and 3 seconds');
  });

  it('refuses the actions it has no message for', () => {
    expect(run({ action: 'membership:created', membership: {} })).toMatchObject({
      kind: 'error',
      error: {
        status: 200,
        message: "The 'membership:created' event isn't currently supported by the OpenProject webhook; ignoring",
      },
    });
  });
});
