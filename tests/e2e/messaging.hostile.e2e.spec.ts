import type { World } from '@confab/devkit';
import { newWorld } from './support/system';

/** Values PostgreSQL cannot store or compare (NUL, ids beyond int4) get Zulip errors or empty answers, never a 500. */
describe('messaging endpoints with hostile values', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  const cases: [string, string, Record<string, unknown>][] = [
    ['GET', '/messages', { anchor: '99999999999', num_before: 2, num_after: 2 }],
    [
      'GET',
      '/messages',
      { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'id', operand: '99999999999999999999' }] },
    ],
    [
      'GET',
      '/messages',
      { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'search', operand: 'a\u0000b' }] },
    ],
    [
      'GET',
      '/messages',
      {
        anchor: 'newest',
        num_before: 1,
        num_after: 0,
        narrow: [
          { operator: 'stream', operand: 'Verona' },
          { operator: 'topic', operand: '\u0000' },
        ],
      },
    ],
    [
      'GET',
      '/messages',
      { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'sender', operand: 'a\u0000@b.c' }] },
    ],
    ['GET', '/get_stream_id', { stream: 'Ver\u0000ona' }],
    ['POST', '/messages', { type: 'direct', to: ['x\u0000@zulip.com'], content: 'x' }],
    [
      'POST',
      '/messages',
      { type: 'stream', to: 'Verona', topic: 't', content: 'x', queue_id: 'q\u0000', local_id: '1' },
    ],
    ['POST', '/messages', { type: 'stream', to: 'Verona', topic: 't', content: 'x', client: 'c\u0000' }],
    ['POST', '/messages', { type: 'direct', to: '[99999999999999999999]', content: 'x' }],
    ['POST', '/messages/flags', { messages: '[99999999999999999999]', op: 'add', flag: 'starred' }],
    ['POST', '/users/me/subscriptions', { subscriptions: [{ name: 'fine', description: 'bad\u0000' }] }],
    ['POST', '/users/me/subscriptions', { subscriptions: [{ name: 'fine' }], message_retention_days: 99999999999 }],
    ['POST', '/channels/create', { name: 'folder', subscribers: [], folder_id: 99999999999 }],
    ['DELETE', '/messages/1/reactions', { emoji_code: '1f\u0000', reaction_type: 'bogus' }],
    ['POST', '/typing', { op: 'start', to: [99999999999] }],
  ];

  it.each(cases)('%s %s %j answers an envelope without a server error', async (method, path, params) => {
    const client = world.as('iago');
    const response = await client.request(method, path, params, method === 'GET' ? { encoding: 'query' } : {});
    expect(response.status).toBeLessThan(500);
    expect(['success', 'error']).toContain(response.body.result);
  });
});
