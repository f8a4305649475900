import { createChannel, subscribeToChannels } from '../src/domain/channels';
import type { Actor } from '../src/domain/actor';
import { fetchMessages, fetchOneMessage, parseAnchor, type FetchInput } from '../src/domain/fetch';
import { updateFlags } from '../src/domain/message-flags';
import type { RawTerm } from '../src/domain/narrow';
import { sendMessage } from '../src/domain/send';
import { messagingWorld, PUBLIC_CHANNEL, realmRecord, refusal, sendToChannel, type TestDomain } from './fixtures';

/**
 * Message history rules of messaging (GET /messages, GET /messages/{id}), checked on the domain against PostgreSQL
 * (the integration tier, docs/architecture.md "Tests"): anchors and the found_* bookkeeping, who reads which channel
 * history and with which flags, direct messages, search. The HTTP shapes stay in tests/e2e/messages.fetch.
 */
describe('message history against PostgreSQL', () => {
  let domain: TestDomain;
  let close: () => Promise<void>;
  let hamlet: Actor;
  let othello: Actor;
  let cordelia: Actor;
  let polonius: Actor;
  const ids: number[] = [];

  beforeAll(async () => {
    const world = await messagingWorld({
      name: 'history_rules',
      pool: 8,
      users: [
        [1, 'hamlet'],
        [2, 'othello'],
        [3, 'cordelia'],
        [4, 'polonius', 600],
      ],
      channel: 'Denmark',
      realm: { permissions: { ...realmRecord.permissions, can_create_private_channel_group: 'role:members' } },
    });
    ({ domain, drop: close } = world);
    ({ hamlet, othello, cordelia, polonius } = world.actors as Record<
      'hamlet' | 'othello' | 'cordelia' | 'polonius',
      Actor
    >);
    for (let i = 0; i < 6; i += 1)
      ids.push(await sendToChannel(domain, hamlet, `topic ${i % 2}`, `line ${i}`, 'Denmark'));
  });

  afterAll(async () => {
    await close();
  });

  const options = { applyMarkdown: true, clientGravatar: false, allowEmptyTopicName: false };
  const channel = (name: string): RawTerm => ({ operator: 'channel', operand: name, negated: false });
  const fetch = (actor: Actor, input: Partial<FetchInput> & { anchor: FetchInput['anchor'] }) =>
    fetchMessages(domain, actor, {
      includeAnchor: true,
      numBefore: 0,
      numAfter: 0,
      narrow: [],
      messageIds: undefined,
      options,
      ...input,
    });
  const idsOf = (page: Record<string, unknown>) => (page.messages as { id: number }[]).map((m) => m.id);

  it('pages from the newest, the oldest and an anchor, saying what it found', async () => {
    const newest = await fetch(othello, { anchor: parseAnchor('newest', false), numBefore: 2 });
    expect(idsOf(newest)).toEqual(ids.slice(4));
    expect(newest).toMatchObject({ found_anchor: false, found_newest: true, found_oldest: false });
    // No message has the id 0: the page holds the two after it (Zulip's post_process_limited_query).
    const oldest = await fetch(othello, { anchor: parseAnchor('oldest', false), numAfter: 2 });
    expect(idsOf(oldest)).toEqual(ids.slice(0, 2));
    expect(oldest).toMatchObject({ found_oldest: true, found_newest: false });
    const around = await fetch(othello, { anchor: ids[2]!, numBefore: 1, numAfter: 1 });
    expect(idsOf(around)).toEqual(ids.slice(1, 4));
    expect(around).toMatchObject({ anchor: ids[2], found_anchor: true, found_oldest: false, found_newest: false });
    const topic = await fetch(othello, {
      anchor: parseAnchor('newest', false),
      numBefore: 10,
      narrow: [channel('Denmark'), { operator: 'topic', operand: 'topic 1', negated: false }],
    });
    expect(idsOf(topic)).toEqual([ids[1], ids[3], ids[5]]);
  });

  it("anchors at the reader's first unread message, and at the newest when everything is read", async () => {
    await updateFlags(domain, cordelia, { messages: ids.slice(0, 3), op: 'add', flag: 'read' });
    const unread = await fetch(cordelia, { anchor: 'first_unread', numAfter: 1, narrow: [channel('Denmark')] });
    expect(unread.anchor).toBe(ids[3]);
    expect(idsOf(unread)).toEqual(ids.slice(3, 5));
    await updateFlags(domain, cordelia, { messages: ids, op: 'add', flag: 'read' });
    const none = await fetch(cordelia, { anchor: 'first_unread', numBefore: 2, narrow: [channel('Denmark')] });
    expect(idsOf(none)).toEqual(ids.slice(4));
    expect(none.found_newest).toBe(true);
  });

  it('refuses what Zulip refuses: oversized pages, an excluded anchor inside the range, unknown narrows', async () => {
    expect(await refusal(fetch(othello, { anchor: 0, numBefore: 3000, numAfter: 3000 }))).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Too many messages requested (maximum 5000).',
    });
    expect(
      await refusal(fetch(othello, { anchor: ids[2]!, numBefore: 1, numAfter: 1, includeAnchor: false })),
    ).toMatchObject({ code: 'BAD_REQUEST', msg: 'The anchor can only be excluded at an end of the range' });
    expect(await refusal(fetch(othello, { anchor: 0, numAfter: 1, narrow: [channel('Atlantis')] }))).toMatchObject({
      code: 'BAD_NARROW',
      msg: 'Invalid narrow operator: unknown channel Atlantis',
    });
    expect(() => parseAnchor('middle', false)).toThrow('Invalid anchor');
  });

  it("shows a public channel's history to members who joined later, as read and historical, not in their feed", async () => {
    await createChannel(domain, othello, {
      name: 'late',
      description: '',
      subscribers: [othello.user.id],
      settings: PUBLIC_CHANNEL,
    });
    const early = await sendToChannel(domain, othello, 'before', 'early', 'late');
    const page = await fetch(hamlet, { anchor: parseAnchor('newest', false), numBefore: 5, narrow: [channel('late')] });
    expect(page.messages).toEqual([expect.objectContaining({ id: early, flags: ['read', 'historical'] })]);
    const feed = await fetch(hamlet, { anchor: parseAnchor('newest', false), numBefore: 100 });
    expect(idsOf(feed)).not.toContain(early);
    // A guest reads only what they received: none of the history of a channel they are not subscribed to.
    const guest = await fetch(polonius, {
      anchor: parseAnchor('newest', false),
      numBefore: 5,
      narrow: [channel('late')],
    });
    expect(guest.messages).toEqual([]);
  });

  it('keeps a private channel without shared history to what each subscriber received', async () => {
    await createChannel(domain, othello, {
      name: 'secret',
      description: '',
      subscribers: [othello.user.id],
      settings: { ...PUBLIC_CHANNEL, inviteOnly: true, historyPublicToSubscribers: false },
    });
    const before = await sendToChannel(domain, othello, 'plans', 'before hamlet', 'secret');
    await subscribeToChannels(domain, othello, {
      subscriptions: [{ name: 'secret' }],
      principals: [hamlet.user.id],
      authorizationErrorsFatal: true,
      settings: PUBLIC_CHANNEL,
    });
    const after = await sendToChannel(domain, othello, 'plans', 'after hamlet', 'secret');
    const page = await fetch(hamlet, {
      anchor: parseAnchor('newest', false),
      numBefore: 10,
      narrow: [channel('secret')],
    });
    expect(idsOf(page)).toEqual([after]);
    expect(await refusal(fetchOneMessage(domain, hamlet, before, options))).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Invalid message(s)',
    });
    // Cordelia, not subscribed, finds none of it.
    expect(await refusal(fetchOneMessage(domain, cordelia, after, options))).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Invalid message(s)',
    });
  });

  it('shows a direct message to its participants only, with its raw content', async () => {
    const { id } = await sendMessage(domain, hamlet, {
      type: 'private',
      to: JSON.stringify([othello.user.id]),
      topic: undefined,
      content: '**bold**',
      queueId: undefined,
      localId: undefined,
      readBySender: undefined,
      client: 'test',
    });
    const seen = await fetchOneMessage(domain, othello, id, options);
    expect(seen.raw_content).toBe('**bold**');
    expect(seen.message).toMatchObject({ id, content: '<p><strong>bold</strong></p>', flags: [] });
    expect(await refusal(fetchOneMessage(domain, cordelia, id, options))).toMatchObject({
      code: 'BAD_REQUEST',
      msg: 'Invalid message(s)',
    });
  });

  it('searches message text and marks the matches', async () => {
    const page = await fetch(othello, {
      anchor: parseAnchor('newest', false),
      numBefore: 10,
      narrow: [channel('Denmark'), { operator: 'search', operand: 'line 3', negated: false }],
    });
    expect(idsOf(page)).toEqual([ids[3]]);
    const [match] = page.messages as { match_content: string }[];
    expect(match!.match_content).toContain('<span class="highlight">line</span>');
  });
});
