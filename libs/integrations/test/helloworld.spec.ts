import { helloworld } from '../src/integrations/helloworld.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

describe('helloworld', () => {
  it('greets, with the featured article as a bold link, in the topic "Hello World"', () => {
    const outcome = runWebhook(
      helloworld,
      jsonRequest({ featured_title: 'Octopus', featured_url: 'https://en.wikipedia.org/wiki/Octopus' }),
    );
    expect(outcome).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'Hello World',
          content:
            'Hello! I am happy to be here! :smile:\nThe Wikipedia featured article for today is ' +
            '**[Octopus](https://en.wikipedia.org/wiki/Octopus)**',
        },
      ],
    });
  });
});
