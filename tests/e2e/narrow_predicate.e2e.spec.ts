import type { ApiClient, World } from '@confab/devkit';
import { messageMatchesNarrow, type NarrowMessage, type NarrowTerm } from '@confab/zulip';
import { expectSuccess } from './support/expect';
import { newWorld } from './support/system';

type Dict = NarrowMessage & { id: number; flags: string[] };

/**
 * One narrow, two readings: messaging's SQL (GET /messages with the narrow) and libs/zulip's predicate (what the
 * events service and the web client decide with) over the same messages must find the same ones, for every
 * operator both support.
 */
describe('GET /messages with a narrow and the narrow predicate agree', () => {
  let world: World;
  let hamlet: ApiClient;
  let all: Dict[];
  const sent: Record<string, number> = {};
  let denmarkId: number;

  const send = async (key: string, from: ApiClient, params: Record<string, unknown>) => {
    const response = await from.post('/messages', params);
    expectSuccess(response, 'POST', '/messages');
    sent[key] = response.body.id as number;
  };

  beforeAll(async () => {
    world = await newWorld();
    hamlet = world.as('hamlet');
    const othello = world.as('othello');
    const [me, other, third] = [world.user('hamlet'), world.user('othello'), world.user('iago')];
    expectSuccess(
      await hamlet.post('/users/me/alert_words', { alert_words: ['ghost'] }),
      'POST',
      '/users/me/alert_words',
    );
    const channel = (to: string, topic: string, content: string) => ({ type: 'stream', to, topic, content });
    await send('plain', othello, channel('Denmark', 'castle', 'plain'));
    await send('words', othello, channel('Denmark', 'Castle gate', 'a topic of two words'));
    await send('mention', othello, channel('Denmark', 'castle', `@**${me.fullName}** look`));
    await send('alert', othello, channel('Denmark', 'castle', 'the ghost walks'));
    await send('resolved', othello, channel('Denmark', '✔ solved', 'done'));
    await send('own', hamlet, channel('Scotland', 'moat', 'mine'));
    await send('dm', othello, { type: 'direct', to: [me.id], content: 'psst' });
    await send('group', othello, { type: 'direct', to: [me.id, third.id], content: 'all three' });
    await send('self', hamlet, { type: 'direct', to: [me.id], content: 'a note' });
    const flag = (messages: number[], flag: string) => hamlet.post('/messages/flags', { messages, op: 'add', flag });
    expectSuccess(await flag([sent.plain!], 'starred'), 'POST', '/messages/flags');
    expectSuccess(await flag([sent.words!, sent.dm!], 'read'), 'POST', '/messages/flags');
    const reacted = await othello.post(`/messages/${sent.own}/reactions`, { emoji_name: 'octopus' });
    expectSuccess(reacted, 'POST', '/messages/{message_id}/reactions');
    all = await fetch([]);
    denmarkId = all.find((m) => m.id === sent.plain)!.stream_id!;
    expect(other.id).not.toBe(me.id);
  });

  async function fetch(narrow: NarrowTerm[]): Promise<Dict[]> {
    const response = await hamlet.get('/messages', { anchor: 'oldest', num_before: 0, num_after: 1000, narrow });
    expectSuccess(response, 'GET', '/messages');
    expect(response.body.found_newest).toBe(true);
    return response.body.messages as Dict[];
  }

  const predicate = (narrow: NarrowTerm[]) =>
    all.filter((m) => messageMatchesNarrow(narrow, m, m.flags, { self: world.user('hamlet').id })).map((m) => m.id);

  const narrows = (): [string, NarrowTerm[]][] => {
    const [me, other, third] = [world.user('hamlet'), world.user('othello'), world.user('iago')];
    return [
      ['channel by name', [{ operator: 'channel', operand: 'Denmark' }]],
      ['channel by id', [{ operator: 'channel', operand: denmarkId }]],
      ['stream (synonym)', [{ operator: 'stream', operand: 'Scotland' }]],
      ['topic', [{ operator: 'topic', operand: 'castle' }]],
      ['topic in other case', [{ operator: 'topic', operand: 'CASTLE GATE' }]],
      ['sender by email', [{ operator: 'sender', operand: other.email }]],
      ['sender by id', [{ operator: 'sender', operand: me.id }]],
      ['dm by ids', [{ operator: 'dm', operand: [other.id] }]],
      ['dm by email', [{ operator: 'dm', operand: other.email }]],
      ['group dm', [{ operator: 'dm', operand: [third.id, other.id] }]],
      ['dm with oneself', [{ operator: 'dm', operand: [me.id] }]],
      ['dm-including', [{ operator: 'dm-including', operand: third.id }]],
      ['is:dm', [{ operator: 'is', operand: 'dm' }]],
      ['is:private', [{ operator: 'is', operand: 'private' }]],
      ['is:starred', [{ operator: 'is', operand: 'starred' }]],
      ['is:mentioned', [{ operator: 'is', operand: 'mentioned' }]],
      ['is:alerted', [{ operator: 'is', operand: 'alerted' }]],
      ['is:unread', [{ operator: 'is', operand: 'unread' }]],
      ['is:resolved', [{ operator: 'is', operand: 'resolved' }]],
      ['has:reaction', [{ operator: 'has', operand: 'reaction' }]],
      ['id', [{ operator: 'id', operand: sent.mention! }]],
      ['negated channel', [{ operator: 'channel', operand: 'Denmark', negated: true }]],
      ['negated topic', [{ operator: 'topic', operand: 'castle', negated: true }]],
      ['negated is:unread', [{ operator: 'is', operand: 'unread', negated: true }]],
      ['negated sender', [{ operator: 'sender', operand: other.email, negated: true }]],
      [
        'channel, topic and is:unread',
        [
          { operator: 'channel', operand: 'Denmark' },
          { operator: 'topic', operand: 'castle' },
          { operator: 'is', operand: 'unread' },
        ],
      ],
    ];
  };

  it('finds the same messages for every operator both support', async () => {
    const results: Record<string, { sql: number[]; predicate: number[] }> = {};
    for (const [name, narrow] of narrows()) {
      results[name] = { sql: (await fetch(narrow)).map((m) => m.id), predicate: predicate(narrow) };
    }
    const differing = Object.entries(results).filter(([, r]) => JSON.stringify(r.sql) !== JSON.stringify(r.predicate));
    expect(Object.fromEntries(differing)).toEqual({});
    // Each narrow found something and left something out: the comparison means something.
    for (const [name, r] of Object.entries(results)) {
      if (name === 'id') expect(r.sql).toEqual([sent.mention]);
      else expect([name, r.sql.length > 0 && r.sql.length < all.length]).toEqual([name, true]);
    }
  });

  it('event queues match a topic word as Zulip’s build_narrow_predicate does, which GET /messages does not', async () => {
    const narrow: NarrowTerm[] = [{ operator: 'topic', operand: 'gate' }];
    expect((await fetch(narrow)).map((m) => m.id)).toEqual([]);
    const queue = all.filter((m) => messageMatchesNarrow(narrow, m, m.flags, { eventQueue: true })).map((m) => m.id);
    expect(queue).toEqual([sent.words]);
  });
});
