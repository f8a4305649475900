import {
  eventHeader,
  fnmatch,
  runWebhook,
  unsupportedEvent,
  webhookRequest,
  type Integration,
  type WebhookMessage,
} from '../src/index.js';
import { jsonRequest } from './support.js';

/** An integration that posts what the body says, with the event its header names. */
const echo: Integration = {
  name: 'echo',
  webhookName: 'Echo',
  handle(request) {
    const event = eventHeader(request, 'X-Echo-Event', 'Echo');
    if (event === 'unknown') unsupportedEvent(event);
    const body = request.json();
    return (body.messages as WebhookMessage[]).map((m) => ({ ...m, event }));
  },
};

const run = (body: unknown, query: Record<string, string> = {}, event = 'push') =>
  runWebhook(echo, jsonRequest(body, { query, headers: { 'X-Echo-Event': event } }));
const one = { messages: [{ topic: 'repo', content: 'pushed' }] };

describe('runWebhook (Zulip webhook_view and check_send_webhook_message)', () => {
  it("sends to the URL's channel, with the URL's topic in place of the integration's", () => {
    expect(run(one, { topic: 'mine' })).toEqual({
      kind: 'messages',
      messages: [{ stream: 'test', topic: 'mine', content: 'pushed' }],
    });
  });

  it("sends to the bot's owner (stream null) without a channel in the URL", () => {
    const request = webhookRequest({
      method: 'POST',
      path: '/api/v1/external/echo',
      query: 'topic=ignored',
      headers: { 'x-echo-event': 'push', 'content-type': 'application/json' },
      body: JSON.stringify(one),
    });
    expect(runWebhook(echo, request)).toEqual({
      kind: 'messages',
      messages: [{ stream: null, topic: 'repo', content: 'pushed' }],
    });
  });

  it('drops messages whose event only_events does not match, or exclude_events does', () => {
    expect(run(one, { only_events: '["pull_*"]' })).toEqual({ kind: 'messages', messages: [] });
    expect(run(one, { only_events: '["pu?h", "tag"]' })).toMatchObject({ messages: [{ content: 'pushed' }] });
    expect(run(one, { exclude_events: '["p*"]' })).toEqual({ kind: 'messages', messages: [] });
    expect(run(one, { exclude_events: '["pull"]' })).toMatchObject({ messages: [{ content: 'pushed' }] });
  });

  it("answers Zulip's texts for a filter that is not a JSON list of strings", () => {
    const outcome = run(one, { only_events: 'push' });
    expect(outcome).toMatchObject({ kind: 'error', error: { message: 'only_events is not valid JSON', status: 400 } });
    expect(run(one, { exclude_events: '[1]' })).toMatchObject({
      error: { message: 'exclude_events[0] is not a string' },
    });
  });

  it("answers an unsupported event with HTTP 200, result error and Zulip's sentence", () => {
    const outcome = run(one, {}, 'unknown');
    expect(outcome).toMatchObject({
      kind: 'error',
      error: {
        status: 200,
        code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
        message: "The 'unknown' event isn't currently supported by the Echo webhook; ignoring",
        data: { webhook_name: 'Echo', event_type: 'unknown' },
      },
    });
  });

  it("answers a missing event header with 400 and a notice for the bot's owner", () => {
    const outcome = runWebhook(echo, jsonRequest(one));
    expect(outcome).toMatchObject({
      kind: 'error',
      error: {
        status: 400,
        code: 'MISSING_HTTP_EVENT_HEADER',
        message: "Missing the HTTP event header 'X-Echo-Event'",
      },
      notice: { kind: 'missing_header', header: 'X-Echo-Event', integrationName: 'Echo' },
    });
  });

  it('answers a body that is not JSON with Malformed JSON and a notice, unless the integration opts out', () => {
    const bad = jsonRequest('{"messages": [', { headers: { 'X-Echo-Event': 'push' } });
    expect(runWebhook(echo, bad)).toMatchObject({
      error: { status: 400, code: 'INVALID_JSON', message: 'Malformed JSON' },
      notice: { kind: 'invalid_json', webhookName: 'Echo' },
    });
    const quiet = runWebhook({ ...echo, notifyOnInvalidJson: false }, bad);
    expect(quiet).toMatchObject({ kind: 'error', error: { code: 'INVALID_JSON' } });
    expect(quiet).not.toHaveProperty('notice');
  });

  it('answers a payload without the fields the provider sends as anomalous, keeping the error for the log', () => {
    const outcome = run({ nothing: true });
    expect(outcome).toMatchObject({
      kind: 'error',
      error: {
        status: 400,
        code: 'ANOMALOUS_WEBHOOK_PAYLOAD',
        message: 'Unable to parse request: Did Echo generate this event?',
      },
    });
    expect(outcome.kind === 'error' && outcome.unexpected).toBeInstanceOf(TypeError);
  });

  it('percent-decodes the URL parameters once more for the integrations that ask (Jira)', () => {
    const jira = { ...echo, unquoteUrlParameters: true };
    const outcome = runWebhook(
      jira,
      jsonRequest(one, { query: { stream: 'a%20b', topic: 'c%2Fd' }, headers: { 'X-Echo-Event': 'push' } }),
    );
    expect(outcome).toMatchObject({ messages: [{ stream: 'a b', topic: 'c/d' }] });
  });
});

describe('fnmatch (Python fnmatch.fnmatchcase)', () => {
  it('matches *, ?, [seq] and [!seq], anchored, case-sensitive', () => {
    expect(fnmatch('pull_request', 'pull_*')).toBe(true);
    expect(fnmatch('pull_request', '*request')).toBe(true);
    expect(fnmatch('push', 'pu?h')).toBe(true);
    expect(fnmatch('push', 'p[aeiou]sh')).toBe(true);
    expect(fnmatch('push', 'p[!u]sh')).toBe(false);
    expect(fnmatch('Push', 'push')).toBe(false);
    expect(fnmatch('push.x', 'push')).toBe(false);
    expect(fnmatch('a.b', 'a.b')).toBe(true);
    expect(fnmatch('axb', 'a.b')).toBe(false);
    expect(fnmatch('[x', '[x')).toBe(true);
  });
});
