import { ansibletower } from '../src/integrations/ansibletower.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const run = (body: unknown) => runWebhook(ansibletower, jsonRequest(body));

describe('ansibletower', () => {
  it('posts a playbook job with its hosts sorted by name, in the topic of the job', () => {
    const body = {
      id: 17,
      name: 'Deploy web',
      url: 'https://awx.acme.test/#/jobs/playbook/17',
      status: 'failed',
      friendly_name: 'Job',
      hosts: {
        'web2.acme.test': { failed: true },
        'Web1.acme.test': { failed: false },
        'db.acme.test': { failed: false },
      },
    };
    expect(run(body)).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'Deploy web',
          content:
            'Job: [#17 Deploy web](https://awx.acme.test/#/jobs/playbook/17) failed:\n' +
            '* Web1.acme.test: Success\n* db.acme.test: Success\n* web2.acme.test: Failed\n',
        },
      ],
    });
  });

  it('posts other kinds of jobs in one line, guessing the kind from the URL of an older AWX', () => {
    const update = {
      id: 3,
      name: 'Sync repo',
      url: 'https://awx.acme.test/#/jobs/project/3',
      status: 'successful',
      friendly_name: 'Project Update',
    };
    expect(run(update)).toMatchObject({
      messages: [
        {
          topic: 'Sync repo',
          content: 'Project Update: [#3 Sync repo](https://awx.acme.test/#/jobs/project/3) was successful.',
        },
      ],
    });
    const older = { id: 4, name: 'Sync inv', url: 'https://awx.acme.test/#/inventory/4/x', status: 'failed' };
    expect(run(older)).toMatchObject({
      messages: [{ content: 'inventory: [#4 Sync inv](https://awx.acme.test/#/inventory/4/x) failed.' }],
    });
    const olderJob = {
      id: 5,
      name: 'Patch',
      url: 'https://awx.acme.test/#/jobs/5/details',
      status: 'successful',
      hosts: {},
    };
    expect(run(olderJob)).toMatchObject({
      messages: [{ content: 'Job: [#5 Patch](https://awx.acme.test/#/jobs/5/details) was successful:\n' }],
    });
  });
});
