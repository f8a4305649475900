import { slack_incoming, replaceFormatting, replaceLinks } from '../src/integrations/slack_incoming.js';
import { runWebhook, WebhookResponse } from '../src/index.js';
import { formRequest, jsonRequest } from './support.js';

const run = (body: unknown, query: Record<string, string> = {}) =>
  runWebhook(slack_incoming, jsonRequest(body, { query }));

/** The message a request posts (Slack-compatible answers carry their messages beside `"ok": true`). */
function posted(outcome: ReturnType<typeof run>) {
  if (outcome.kind !== 'response') throw new Error(`expected a response, got ${outcome.kind}`);
  return outcome.messages;
}

describe('slack_incoming (Slack-compatible incoming webhooks)', () => {
  it('posts the text, Slack links and *bold* made Markdown, in the empty topic, and answers ok: true', () => {
    const outcome = run({ text: 'Deploy of <https://ci.example.com/7|build 7> is *done*, _finally_.' });
    expect(outcome).toMatchObject({ kind: 'response', response: { status: 200, body: { ok: true } } });
    expect((outcome as { response: WebhookResponse }).response).toBeInstanceOf(WebhookResponse);
    expect(posted(outcome)).toEqual([
      {
        stream: 'test',
        topic: '(no topic)',
        content: 'Deploy of [build 7](https://ci.example.com/7) is **done**, *finally*.',
      },
    ]);
  });

  it("takes the payload's channel, without its # or @, as the topic unless the URL names one", () => {
    expect(posted(run({ text: 'hi', channel: '#ops' }))).toMatchObject([{ topic: 'ops' }]);
    expect(posted(run({ text: 'hi', channel: '@ada' }))).toMatchObject([{ topic: 'ada' }]);
    expect(posted(run({ text: 'hi', channel: '#ops' }, { topic: 'mine' }))).toMatchObject([{ topic: 'mine' }]);
  });

  it('puts the icon emoji before a plain text', () => {
    expect(posted(run({ text: 'rolled out', icon_emoji: ':rocket:' }))).toMatchObject([
      { content: ':rocket: rolled out' },
    ]);
  });

  it('reads the form field `payload` of a form-encoded request, and wants it', () => {
    const form = formRequest({ payload: JSON.stringify({ text: 'from a form', channel: 'general' }) });
    expect(posted(runWebhook(slack_incoming, form))).toEqual([
      { stream: 'test', topic: 'general', content: 'from a form' },
    ]);
    expect(runWebhook(slack_incoming, formRequest({ text: 'no payload' }))).toMatchObject({
      kind: 'error',
      error: { message: "Missing 'payload' argument", status: 400 },
    });
  });

  it('renders blocks: header, section text, fields as a table, images, dividers, context', () => {
    const blocks = [
      { type: 'header', text: { type: 'plain_text', text: 'Release 2.1' } },
      {
        type: 'section',
        text: { type: 'mrkdwn', text: 'Shipped by *Ada*' },
        accessory: { type: 'image', image_url: 'https://img.example.com/a.png', alt_text: 'avatar' },
      },
      {
        type: 'section',
        fields: [
          { type: 'mrkdwn', text: 'Env' },
          { type: 'plain_text', text: 'prod|eu' },
          { type: 'mrkdwn', text: 'Time' },
        ],
      },
      { type: 'divider' },
      { type: 'image', image_url: 'https://img.example.com/chart.png', alt_text: 'chart' },
      { type: 'actions', elements: [] },
      {
        type: 'context',
        elements: [
          { type: 'mrkdwn', text: 'via CI' },
          { type: 'image', image_url: 'https://img.example.com/ci.png', alt_text: 'ci' },
        ],
      },
    ];
    expect(posted(run({ blocks, text: 'ignored when blocks render' }))).toMatchObject([
      {
        content:
          '## Release 2.1\n\nShipped by **Ada**\n\n[avatar](https://img.example.com/a.png)\n\n' +
          '| | |\n|-|-|\n| Env | prod eu |\n| Time |  |\n\n----\n\n[chart](https://img.example.com/chart.png)\n\n' +
          'via CI\n\n[ci](https://img.example.com/ci.png)',
      },
    ]);
  });

  it('renders attachments: linked title, pretext, text, fields, image, footer, time', () => {
    const attachments = [
      {
        title: 'Build 12',
        title_link: 'https://ci.example.com/12',
        pretext: 'CI says',
        text: 'All green',
        fields: [{ title: 'Branch', value: 'main' }, { title: 'Only title' }, { value: 'only value', title: null }],
        image_url: 'https://img.example.com/b.png',
        footer: 'ci-bot',
        ts: 1700000000,
      },
    ];
    expect(posted(run({ attachments }))).toMatchObject([
      {
        content:
          '## [Build 12](https://ci.example.com/12)\n\nCI says\n\nAll green\n\n**Branch**: main\n**Only title**\n' +
          'only value\n\n[](https://img.example.com/b.png)\n\nci-bot\n\n<time:1700000000>',
      },
    ]);
  });

  it('posts nothing, and still answers ok, when there is nothing to show', () => {
    expect(posted(run({ text: null }))).toEqual([]);
    expect(posted(run({ attachments: [{ title: null, text: null }] }))).toEqual([]);
  });

  it('answers that it cannot parse a block of a type Slack does not have', () => {
    expect(run({ blocks: [{ type: 'carousel' }] })).toMatchObject({
      kind: 'error',
      error: { message: 'Unable to parse request: Did SlackIncoming generate this event?' },
    });
  });

  it("converts Slack's links and emphasis as Zulip's regular expressions do", () => {
    expect(replaceLinks('<mailto://a@b.c|mail> and <https://x.y/?q=1|x>')).toBe(
      '[mail](mailto://a@b.c) and [x](https://x.y/?q=1)',
    );
    expect(replaceFormatting('*bold* not*bold* _it_ snake_case_name * spaced *')).toBe(
      '**bold** not*bold* *it* snake_case_name * spaced *',
    );
    expect(replaceFormatting('über*fett* *fett*')).toBe('über*fett* **fett**');
  });
});
