import { zendesk } from '../src/integrations/zendesk.js';
import { runWebhook } from '../src/index.js';
import { formRequest, jsonRequest } from './support.js';

describe('zendesk', () => {
  it('posts the trigger\'s message in the topic "#<id>: <title>", cut to 60 characters', () => {
    expect(
      runWebhook(zendesk, formRequest({ ticket_title: 'Broken link', ticket_id: '7', message: 'Ada replied.' })),
    ).toEqual({
      kind: 'messages',
      messages: [{ stream: 'test', topic: '#7: Broken link', content: 'Ada replied.' }],
    });
    const long = 'x'.repeat(80);
    expect(runWebhook(zendesk, formRequest({ ticket_title: long, ticket_id: '7', message: 'm' }))).toMatchObject({
      messages: [{ topic: `#7: ${'x'.repeat(53)}...` }],
    });
  });

  it("answers Zulip's error for a missing field", () => {
    expect(runWebhook(zendesk, formRequest({ ticket_title: 'Broken link', ticket_id: '7' }))).toMatchObject({
      kind: 'error',
      error: { status: 400, code: 'REQUEST_VARIABLE_MISSING', message: "Missing 'message' argument" },
    });
  });

  it("answers a body that is not JSON with the missing field and tells the bot's owner nothing", () => {
    const outcome = runWebhook(zendesk, jsonRequest('{"ticket_title": '));
    expect(outcome).toMatchObject({
      kind: 'error',
      error: { status: 400, code: 'REQUEST_VARIABLE_MISSING', message: "Missing 'ticket_title' argument" },
    });
    expect(outcome).not.toHaveProperty('notice');
  });
});
