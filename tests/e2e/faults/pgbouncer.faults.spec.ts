import {
  createWorld,
  databaseServices,
  localPostgresUrl,
  stackDatabaseName,
  startPgBouncer,
  type PgBouncer,
  type Stack,
  type StackInfo,
  type World,
} from '@confab/devkit';
import { faultRunId, startFaultStack } from './stack';

/** Server connections PgBouncer may open per database: fewer than any one service's client pools together. */
const POOL_SIZE = 3;

describe('every service through PgBouncer in transaction mode', () => {
  let bouncer: PgBouncer;
  let stack: Stack;
  let info: StackInfo;
  let world: World;

  beforeAll(async () => {
    bouncer = await startPgBouncer({ upstream: process.env.DATABASE_URL ?? localPostgresUrl(), poolSize: POOL_SIZE });
    // Migrations go to PostgreSQL directly (prisma migrate takes a session lock); every process goes through PgBouncer.
    const runId = faultRunId();
    const env = Object.fromEntries(
      databaseServices().map((spec) => [spec.databaseEnv!, bouncer.urlFor(stackDatabaseName(runId, spec.service))]),
    );
    ({ stack, info } = await startFaultStack({}, env, { runId }));
    world = await createWorld(info);
  }, 300_000);

  afterAll(async () => {
    await stack?.stop({ cleanUp: true }).catch(() => undefined);
    await bouncer?.stop();
  });

  it('creates an organization, sends, reads, edits and reacts, with many clients on a few server connections', async () => {
    const hamlet = world.as('hamlet');
    const cordelia = world.as('cordelia');
    // Concurrent sends from several users (messaging's plain-pg send path and its Prisma paths, the outbox relay).
    const senders = (['hamlet', 'othello', 'iago', 'cordelia'] as const).map(async (name) => {
      const ids: number[] = [];
      for (let n = 0; n < 15; n++) {
        const response = await world.as(name).post('/messages', {
          type: 'stream',
          to: 'Verona',
          topic: 'pooled',
          content: `${name} ${n}`,
        });
        expect({ status: response.status, msg: response.body.msg }).toEqual({ status: 200, msg: '' });
        ids.push(response.body.id as number);
      }
      return ids;
    });
    const bySender = await Promise.all(senders);
    const sent = bySender.flat().sort((a, b) => a - b);
    const direct = await hamlet.post('/messages', {
      type: 'direct',
      to: JSON.stringify([world.user('cordelia').id]),
      content: 'just between us',
    });
    expect(direct.status).toBe(200);

    // Read back: the topic's history, the direct message, flags, an edit and a reaction.
    const history = await cordelia.get('/messages', {
      anchor: 'oldest',
      num_before: 0,
      num_after: 1000,
      narrow: JSON.stringify([
        { operator: 'channel', operand: 'Verona' },
        { operator: 'topic', operand: 'pooled' },
      ]),
    });
    expect(history.status).toBe(200);
    expect((history.body.messages as { id: number }[]).map((m) => m.id)).toEqual(sent);
    const dms = await cordelia.get('/messages', {
      anchor: 'newest',
      num_before: 10,
      num_after: 0,
      narrow: JSON.stringify([{ operator: 'dm', operand: [world.user('hamlet').id] }]),
    });
    expect((dms.body.messages as { content: string }[]).map((m) => m.content)).toEqual(['<p>just between us</p>']);
    expect((await cordelia.post('/messages/flags', { messages: sent, op: 'add', flag: 'read' })).status).toBe(200);
    const unread = await cordelia.get('/messages', {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: JSON.stringify([{ operator: 'is', operand: 'unread' }]),
    });
    expect((unread.body.messages as { id: number }[]).map((m) => m.id)).toEqual([direct.body.id]);
    const first = sent[0]!;
    expect((await world.as('othello').post(`/messages/${first}/reactions`, { emoji_name: 'smile' })).status).toBe(200);
    const mine = bySender[0]!.at(-1)!;
    expect((await hamlet.patch(`/messages/${mine}`, { content: 'edited through the pool' })).status).toBe(200);
    const edited = await cordelia.get(`/messages/${mine}`);
    expect(edited.body.message.content).toBe('<p>edited through the pool</p>');
    const reacted = await cordelia.get(`/messages/${first}`);
    expect(reacted.body.message.reactions).toEqual([expect.objectContaining({ emoji_name: 'smile' })]);

    // Other services' Prisma paths: a user group (groups), an invitation link (invitations), a setting (settings).
    const group = await world.as('iago').post('/user_groups/create', {
      name: 'Pooled',
      description: 'made through PgBouncer',
      members: [world.user('hamlet').id],
    });
    expect(group.status).toBe(200);
    expect((await world.as('iago').post('/invites/multiuse')).status).toBe(200);
    expect((await hamlet.patch('/settings', { full_name: 'Hamlet Pooled' })).status).toBe(200);
    const me = await hamlet.get('/users/me');
    expect(me.body.full_name).toBe('Hamlet Pooled');

    // PgBouncer served it all: each database's clients shared at most POOL_SIZE server connections.
    const pools = (await bouncer.admin('SHOW POOLS')).filter((p) => String(p.database).startsWith('confab_'));
    expect(pools.map((p) => p.database).sort()).toEqual(
      databaseServices()
        .map((spec) => stackDatabaseName(info.runId, spec.service))
        .sort(),
    );
    for (const pool of pools)
      expect(Number(pool.sv_active) + Number(pool.sv_idle) + Number(pool.sv_used)).toBeLessThanOrEqual(POOL_SIZE);
    const messaging = pools.find((p) => p.database === stackDatabaseName(info.runId, 'messaging'));
    expect(Number(messaging?.cl_active) + Number(messaging?.cl_waiting)).toBeGreaterThan(POOL_SIZE);
  }, 300_000);
});
