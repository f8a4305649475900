import { reviewboard } from '../src/integrations/reviewboard.js';
import { runWebhook } from '../src/index.js';
import { jsonRequest } from './support.js';

const reviewRequest = (extra: Record<string, unknown> = {}) => ({
  id: 4,
  summary: 'Faster engines',
  description: 'Twice the thrust',
  status: 'pending',
  absolute_url: 'https://rb.example/r/4/',
  branch: 'engines',
  target_people: [{ title: 'grace' }, { title: 'alan' }],
  links: {
    repository: { title: 'Rocket' },
    submitter: { title: 'ada' },
    self: { href: 'https://rb.example/api/review-requests/4/' },
  },
  ...extra,
});
const run = (event: string, body: unknown) =>
  runWebhook(reviewboard, jsonRequest(body, { headers: { 'X-ReviewBoard-Event': event } }));

describe('reviewboard', () => {
  it('posts a review request published, in the topic of its repository', () => {
    expect(run('review_request_published', { review_request: reviewRequest() })).toEqual({
      kind: 'messages',
      messages: [
        {
          stream: 'test',
          topic: 'Rocket',
          content:
            '**ada** opened [#4: Faster engines](https://rb.example/r/4/):\n\n``` quote\n**Description**: Twice the thrust\n' +
            '**Status**: pending\n**Target people**: **grace**, and **alan**\n**Branch**: engines\n```',
        },
      ],
    });
  });

  it('posts a review request closed, with its close type', () => {
    const body = {
      review_request: reviewRequest({ branch: null }),
      closed_by: { username: 'grace' },
      close_type: 'submitted',
    };
    expect(run('review_request_closed', body)).toMatchObject({
      messages: [
        {
          content:
            '**grace** closed [#4: Faster engines](https://rb.example/r/4/):\n\n``` quote\n**Description**: Twice the thrust\n' +
            '**Status**: pending\n**Target people**: **grace**, and **alan**\n**Close type**: submitted\n```',
        },
      ],
    });
  });

  it('posts a review with its summary', () => {
    const body = {
      review_request: reviewRequest(),
      review: {
        absolute_url: 'https://rb.example/r/4/#review9',
        body_top: 'Ship it!',
        links: { user: { title: 'grace' } },
      },
    };
    expect(run('review_published', body)).toMatchObject({
      messages: [
        {
          content:
            '**grace** [reviewed](https://rb.example/r/4/#review9) [#4: Faster engines](https://rb.example/r/4/):\n\n' +
            '**Review**:\n``` quote\nShip it!\n```',
        },
      ],
    });
  });

  it("answers Zulip's errors for an unsupported event and a missing event header", () => {
    expect(run('review_request_updated', { review_request: reviewRequest() })).toMatchObject({
      kind: 'error',
      error: {
        status: 200,
        code: 'UNSUPPORTED_WEBHOOK_EVENT_TYPE',
        message: "The 'review_request_updated' event isn't currently supported by the ReviewBoard webhook; ignoring",
      },
    });
    expect(runWebhook(reviewboard, jsonRequest({ review_request: reviewRequest() }))).toMatchObject({
      kind: 'error',
      error: { status: 400, message: "Missing the HTTP event header 'X-ReviewBoard-Event'" },
    });
  });
});
