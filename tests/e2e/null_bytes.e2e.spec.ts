import type { ApiClient, World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

// A NUL cannot be stored in PostgreSQL text: every place a topic or content enters refuses it with Zulip's text.
const NUL_TOPIC = 'a\u0000b';
const NUL_CONTENT = 'some \u0000 content';
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

describe('null bytes in topics and content', () => {
  let world: World;
  let hamlet: ApiClient;
  let verona: number;
  beforeAll(async () => {
    world = await newWorld();
    hamlet = world.as('hamlet');
    verona = (await hamlet.get('/get_stream_id', { stream: 'Verona' })).body.stream_id as number;
  });

  describe('POST /drafts and PATCH /drafts/{draft_id}', () => {
    let draftId: number;
    beforeAll(async () => {
      const created = await hamlet.post('/drafts', { drafts: [{ type: '', to: [], topic: '', content: 'ok' }] });
      expectSuccess(created, 'POST', '/drafts');
      draftId = (created.body.ids as number[])[0]!;
    });

    it.each([
      ['an unaddressed draft', () => ({ type: '', to: [], topic: NUL_TOPIC, content: 'x' })],
      ['a direct draft', () => ({ type: 'private', to: [world.user('othello').id], topic: NUL_TOPIC, content: 'x' })],
      ['a channel draft', () => ({ type: 'stream', to: [verona], topic: NUL_TOPIC, content: 'x' })],
    ])('refuse a topic with a null byte in %s', async (_kind, draft) => {
      expectError(
        await hamlet.post('/drafts', { drafts: [draft()] }),
        400,
        'BAD_REQUEST',
        'Topic must not contain null bytes',
      );
      expectError(
        await hamlet.patch(`/drafts/${draftId}`, { draft: draft() }),
        400,
        'BAD_REQUEST',
        'Topic must not contain null bytes',
      );
    });

    it('refuse content with a null byte', async () => {
      const draft = { type: 'stream', to: [verona], topic: 'fine', content: NUL_CONTENT };
      expectError(
        await hamlet.post('/drafts', { drafts: [draft] }),
        400,
        'BAD_REQUEST',
        'Message must not contain null bytes',
      );
      expectError(
        await hamlet.patch(`/drafts/${draftId}`, { draft }),
        400,
        'BAD_REQUEST',
        'Message must not contain null bytes',
      );
    });

    it('leave the stored draft unchanged', async () => {
      const listed = await hamlet.get('/drafts');
      expectSuccess(listed, 'GET', '/drafts');
      expect(listed.body.drafts).toEqual([expect.objectContaining({ id: draftId, topic: '', content: 'ok' })]);
    });
  });

  describe('POST /messages', () => {
    it('refuses a topic with a null byte as an invalid character', async () => {
      expectError(
        await hamlet.post('/messages', { type: 'stream', to: verona, topic: NUL_TOPIC, content: 'x' }),
        400,
        'BAD_REQUEST',
        'Invalid character in topic, at position 2!',
      );
    });

    it('refuses content with a null byte', async () => {
      expectError(
        await hamlet.post('/messages', { type: 'stream', to: verona, topic: 'fine', content: NUL_CONTENT }),
        400,
        'BAD_REQUEST',
        'Message must not contain null bytes',
      );
    });
  });

  describe('POST /scheduled_messages and PATCH /scheduled_messages/{scheduled_message_id}', () => {
    let scheduledId: number;
    beforeAll(async () => {
      const created = await hamlet.post('/scheduled_messages', {
        type: 'stream',
        to: verona,
        topic: 'later',
        content: 'ok',
        scheduled_delivery_timestamp: inAnHour(),
      });
      expectSuccess(created, 'POST', '/scheduled_messages');
      scheduledId = created.body.scheduled_message_id as number;
    });

    it('refuse a topic with a null byte', async () => {
      expectError(
        await hamlet.post('/scheduled_messages', {
          type: 'stream',
          to: verona,
          topic: NUL_TOPIC,
          content: 'x',
          scheduled_delivery_timestamp: inAnHour(),
        }),
        400,
        'BAD_REQUEST',
        'Invalid character in topic, at position 2!',
      );
      expectError(
        await hamlet.patch(`/scheduled_messages/${scheduledId}`, { topic: NUL_TOPIC }),
        400,
        'BAD_REQUEST',
        'Invalid character in topic, at position 2!',
      );
    });

    it('refuse content with a null byte', async () => {
      expectError(
        await hamlet.post('/scheduled_messages', {
          type: 'stream',
          to: verona,
          topic: 'fine',
          content: NUL_CONTENT,
          scheduled_delivery_timestamp: inAnHour(),
        }),
        400,
        'BAD_REQUEST',
        'Message must not contain null bytes',
      );
      expectError(
        await hamlet.patch(`/scheduled_messages/${scheduledId}`, { content: NUL_CONTENT }),
        400,
        'BAD_REQUEST',
        'Message must not contain null bytes',
      );
    });

    it('leave the scheduled message unchanged', async () => {
      const listed = await hamlet.get('/scheduled_messages');
      expectSuccess(listed, 'GET', '/scheduled_messages');
      expect(listed.body.scheduled_messages).toEqual([
        expect.objectContaining({ scheduled_message_id: scheduledId, topic: 'later', content: 'ok' }),
      ]);
    });
  });

  describe('POST /saved_snippets and PATCH /saved_snippets/{saved_snippet_id}', () => {
    let snippetId: number;
    beforeAll(async () => {
      const created = await hamlet.post('/saved_snippets', { title: 'greeting', content: 'hello' });
      expectSuccess(created, 'POST', '/saved_snippets');
      snippetId = created.body.saved_snippet_id as number;
    });

    it('refuse a title or content with a null byte', async () => {
      expectError(
        await hamlet.post('/saved_snippets', { title: NUL_TOPIC, content: 'x' }),
        400,
        'BAD_REQUEST',
        'Title must not contain null bytes',
      );
      expectError(
        await hamlet.post('/saved_snippets', { title: 'fine', content: NUL_CONTENT }),
        400,
        'BAD_REQUEST',
        'Content must not contain null bytes',
      );
      expectError(
        await hamlet.patch(`/saved_snippets/${snippetId}`, { title: NUL_TOPIC }),
        400,
        'BAD_REQUEST',
        'Title must not contain null bytes',
      );
      expectError(
        await hamlet.patch(`/saved_snippets/${snippetId}`, { content: NUL_CONTENT }),
        400,
        'BAD_REQUEST',
        'Content must not contain null bytes',
      );
      const listed = await hamlet.get('/saved_snippets');
      expect(listed.body.saved_snippets).toEqual([
        expect.objectContaining({ id: snippetId, title: 'greeting', content: 'hello' }),
      ]);
    });
  });

  describe('POST /user_topics', () => {
    it('refuses a topic with a null byte', async () => {
      expectError(
        await hamlet.post('/user_topics', { stream_id: verona, topic: NUL_TOPIC, visibility_policy: 1 }),
        400,
        'BAD_REQUEST',
        'Invalid character in topic, at position 2!',
      );
    });
  });
});
