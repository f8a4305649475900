import { ifttt } from '../src/integrations/ifttt.js';
import { json } from '../src/integrations/json.js';
import { convertSlackFormatting, slack, slackReplaceLinks } from '../src/integrations/slack.js';
import { zapier } from '../src/integrations/zapier.js';
import { runWebhook, WebhookResponse, type WebhookBot } from '../src/index.js';
import { pyJsonDumps } from '../src/toolkit/pyjson.js';
import { formRequest, jsonRequest } from './support.js';

describe("slack (Slack's outgoing webhooks)", () => {
  const said = { user_name: 'ada', text: 'lunch?', channel_name: 'random' };
  const run = (query: Record<string, string> = {}, fields: Record<string, string> = said) =>
    runWebhook(slack, formRequest(fields, { query }));

  it('posts "**user**: text" in the topic "Message from Slack"', () => {
    expect(run()).toEqual({
      kind: 'messages',
      messages: [{ stream: 'test', topic: 'Message from Slack', content: '**ada**: lunch?' }],
    });
  });

  it('maps the Slack channel to a topic (1) or to the Zulip channel of its name (0); the URL topic wins', () => {
    expect(run({ channels_map_to_topics: '1' })).toMatchObject({ messages: [{ topic: 'channel: random' }] });
    expect(run({ channels_map_to_topics: '1', topic: 'mine' })).toMatchObject({ messages: [{ topic: 'mine' }] });
    expect(run({ channels_map_to_topics: '0' })).toMatchObject({
      messages: [{ stream: 'random', topic: 'Message from Slack' }],
    });
    expect(run({ channels_map_to_topics: '2' })).toMatchObject({
      kind: 'error',
      error: { message: 'Error: channels_map_to_topics parameter other than 0 or 1', status: 400 },
    });
  });

  it("makes Slack's formatting and links Markdown, as Zulip's Slack importer does", () => {
    const fields = {
      ...said,
      text: '*Deploy* of <https://ci.acme.test/7|build 7> is ~late~, _again_; ask <mailto:ops@acme.test|ops@acme.test>',
    };
    expect(run({}, fields)).toMatchObject({
      messages: [
        {
          content:
            '**ada**: **Deploy** of [build 7](https://ci.acme.test/7) is ~~late~~, *again*; ask mailto:ops@acme.test',
        },
      ],
    });
    expect(convertSlackFormatting('snake_case_name a*b* `*code*` (*x*)')).toBe('snake_case_name a*b* `*code*` (**x**)');
    expect(slackReplaceLinks('<http://foo.com> <https://Upper.com>')).toBe('http://foo.com <https://Upper.com>');
  });

  it("refuses Slack's Events API (a JSON body), which needs Slack's own API", () => {
    expect(runWebhook(slack, jsonRequest({ type: 'url_verification', challenge: 'c' }))).toMatchObject({
      kind: 'error',
      error: { status: 501, message: "Slack's Events API is not available on this server yet" },
    });
  });

  it("answers Zulip's missing-argument error for each field Slack sends", () => {
    expect(run({}, { text: 'x', channel_name: 'c' })).toMatchObject({
      error: { message: "Missing 'user_name' argument" },
    });
    expect(run({}, { user_name: 'a', channel_name: 'c' })).toMatchObject({
      error: { message: "Missing 'text' argument" },
    });
  });
});

describe('json (the JSON formatter)', () => {
  it("pretty-prints the body as Python's json.dumps(indent=2) does, in the topic JSON", () => {
    const outcome = runWebhook(json, jsonRequest({ name: 'Zoë', tags: [], empty: {}, nested: { n: 1.5, ok: true } }));
    expect(outcome).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'JSON',
          content:
            '```json\n{\n  "name": "Zo\\u00eb",\n  "tags": [],\n  "empty": {},\n  "nested": {\n    "n": 1.5,\n' +
            '    "ok": true\n  }\n}\n```',
        },
      ],
    });
  });

  it("prints without indent as Python's default separators do, and escapes what is not ASCII", () => {
    expect(pyJsonDumps({ a: [1, null, 'é😀'] })).toBe('{"a": [1, null, "\\u00e9\\ud83d\\ude00"]}');
  });
});

describe('zapier', () => {
  it('posts the topic (or the older subject) and content as they are', () => {
    expect(runWebhook(zapier, jsonRequest({ topic: 'New lead', content: 'Ada, from the form' }))).toEqual({
      kind: 'messages',
      messages: [{ stream: 'test', topic: 'New lead', content: 'Ada, from the form' }],
    });
    expect(runWebhook(zapier, jsonRequest({ subject: 'Old zap', content: 'x' }))).toMatchObject({
      messages: [{ topic: 'Old zap' }],
    });
  });

  it("answers Zulip's texts when the topic or the content is missing", () => {
    expect(runWebhook(zapier, jsonRequest({ content: 'x' }))).toMatchObject({
      error: { message: "Topic can't be empty", status: 400 },
    });
    expect(runWebhook(zapier, jsonRequest({ topic: 'x' }))).toMatchObject({
      error: { message: "Content can't be empty" },
    });
  });

  it("answers the app's authentication check with the bot's name, email and id", () => {
    const outcome = runWebhook(zapier, jsonRequest({ type: 'auth' }));
    if (outcome.kind !== 'response') throw new Error('expected an answer of its own');
    const body = outcome.response.body as (bot: WebhookBot) => Record<string, unknown>;
    expect(outcome.response).toBeInstanceOf(WebhookResponse);
    expect(body({ userId: 7, fullName: 'Zap bot', email: 'zap-bot@acme.test' })).toEqual({
      full_name: 'Zap bot',
      email: 'zap-bot@acme.test',
      id: 7,
    });
  });
});

describe('ifttt', () => {
  it('posts the topic (or the older subject) and content as they are', () => {
    expect(runWebhook(ifttt, jsonRequest({ topic: 'Doorbell', content: 'Someone rang' }))).toEqual({
      kind: 'messages',
      messages: [{ stream: 'test', topic: 'Doorbell', content: 'Someone rang' }],
    });
    expect(runWebhook(ifttt, jsonRequest({ subject: 'Rain', content: 'Take an umbrella' }))).toMatchObject({
      messages: [{ topic: 'Rain' }],
    });
  });

  it('answers "Malformed payload" for a topic or content that is not a string, and Zulip\'s empty texts', () => {
    expect(runWebhook(ifttt, jsonRequest({ topic: { a: 1 }, content: 'x' }))).toMatchObject({
      error: { message: 'Malformed payload', status: 400 },
    });
    expect(runWebhook(ifttt, jsonRequest({ topic: 'x', content: ['y'] }))).toMatchObject({
      error: { message: 'Malformed payload' },
    });
    expect(runWebhook(ifttt, jsonRequest({ content: 'x' }))).toMatchObject({
      error: { message: "Topic can't be empty" },
    });
    expect(runWebhook(ifttt, jsonRequest({ topic: 'x' }))).toMatchObject({
      error: { message: "Content can't be empty" },
    });
  });
});
