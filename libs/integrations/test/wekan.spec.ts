import { wekan } from '../src/integrations/wekan.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

describe('wekan', () => {
  it('posts Wekan\'s sentence with its URL as a link, in the topic "Wekan Notification"', () => {
    const text =
      'ada moved card "Dark mode" at list "Doing" at swimlane "Default" at board "Roadmap"\nhttps://wekan.acme.test/b/1/roadmap/2';
    expect(runWebhook(wekan, jsonRequest({ text, cardId: '2' }))).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'Wekan Notification',
          content:
            'ada moved card "Dark mode" at list "Doing" at swimlane "Default" at board "Roadmap".\n\n' +
            '[See in Wekan](https://wekan.acme.test/b/1/roadmap/2)',
        },
      ],
    });
  });

  it('answers that the payload is not Wekan’s without its text', () => {
    expect(runWebhook(wekan, jsonRequest({ description: 'x' }))).toMatchObject({
      kind: 'error',
      error: { message: 'Unable to parse request: Did Wekan generate this event?' },
    });
  });
});
