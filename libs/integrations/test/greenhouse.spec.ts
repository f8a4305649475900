import { greenhouse } from '../src/integrations/greenhouse.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const candidate = {
  id: 7,
  first_name: 'Ada',
  last_name: 'Lovelace',
  email_addresses: [{ value: 'ada@example.com', type: 'personal' }],
  attachments: [{ filename: 'cv.pdf', url: 'https://files.test/cv.pdf', type: 'resume' }],
};
const application = { candidate, jobs: [{ name: 'Engineer' }] };

describe('greenhouse', () => {
  it('posts what happened to an application in the topic "<Action> - <id>"', () => {
    expect(runWebhook(greenhouse, jsonRequest({ action: 'candidate_stage_change', payload: { application } }))).toEqual(
      {
        kind: 'messages',
        messages: [
          {
            stream: 'test',
            topic: 'Candidate Stage Change - 7',
            content:
              'Candidate Stage Change Ada Lovelace (ID: 7), applying for:\n* **Role**: Engineer\n' +
              '* **Emails**: ada@example.com (Personal)\n* **Attachments**: [Resume](https://files.test/cv.pdf)',
          },
        ],
      },
    );
  });

  it("posts nothing for Greenhouse's ping", () => {
    expect(runWebhook(greenhouse, jsonRequest({ action: 'ping' }))).toEqual({ kind: 'messages', messages: [] });
  });
});
