import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Job, Queue, Worker } from 'bullmq';
import sodium from 'libsodium-wrappers';
import { Redis } from 'ioredis';
import { LOCAL_DEFAULTS, serviceDatabase } from '@confab/devkit';
import type { UserIdentity } from '@confab/identity';
import { createLogger } from '@confab/logging';
import { bullOptions } from '@confab/runtime';
import {
  finishClientRegistration,
  registerClientDevice,
  registerPushDevice,
  removeClientDevice,
} from '../src/domain/client-devices';
import { registerDevice } from '../src/domain/devices';
import { REGISTER_QUEUE, TEST_QUEUE, type JobCatalog, type JobOf } from '../src/jobs/catalog';
import { RegistrationQueue, TestNotificationQueue } from '../src/jobs/queues';
import { runRegistration } from '../src/jobs/register-device.job';
import { runTestNotification } from '../src/jobs/test-notification.job';
import { RelayClient } from '../src/relay/client';
import { createPrisma, type Db } from '../src/repositories/prisma';
import { PushRepository } from '../src/repositories/push.repository';

/** The push service's repository and jobs against a real PostgreSQL and Redis, with a relay on 127.0.0.1. */
const redisUrl = process.env.REDIS_URL ?? LOCAL_DEFAULTS.redisUrl;
const run = randomBytes(4).toString('hex');
let database: { url: string; drop: () => Promise<void> } | undefined;
const redisPrefix = `confab-int-${run}`;
const redisAt = (prefix: string) => ({ url: redisUrl, prefix, cluster: false });
const logger = createLogger({ name: 'push-int', level: 'silent' });
// Creating and migrating a database takes a few seconds.
jest.setTimeout(30_000);

let prisma: Db;
let repo: PushRepository;
let relayServer: Server;
let relayUrl: string;
let relayAnswer: (path: string, res: ServerResponse) => void;
const relayCalls: { path: string; key: string | undefined; body: Record<string, unknown> }[] = [];

const user: UserIdentity = { kind: 'user', userId: 41, realmId: 3, role: 400, email: 'hamlet@zulip.com', isBot: false };
const ok = (path: string, res: ServerResponse) =>
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(
      JSON.stringify(path.endsWith('/register') ? { device_id: `relay-${relayCalls.length}` } : { delivered: true }),
    );

function relayClient(): RelayClient {
  return new RelayClient(
    { url: relayUrl, serverId: 'srv', serverKey: 'key', timeoutMs: 500, attempts: 2, backoffMs: 10 },
    logger,
  );
}

function publicKey(): string {
  return Buffer.from(sodium.crypto_box_keypair().publicKey).toString('base64');
}

beforeAll(async () => {
  await sodium.ready;
  database = await serviceDatabase('push', 'push');
  const url = database.url;
  prisma = createPrisma(url, 4);
  repo = new PushRepository(prisma);
  relayServer = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      relayCalls.push({
        path: req.url ?? '',
        key: req.headers['idempotency-key'] as string | undefined,
        body: JSON.parse(body) as Record<string, unknown>,
      });
      relayAnswer(req.url ?? '', res);
    });
  });
  await new Promise<void>((resolve) => relayServer.listen(0, '127.0.0.1', resolve));
  relayUrl = `http://127.0.0.1:${(relayServer.address() as { port: number }).port}`;
});

afterAll(async () => {
  await prisma?.$disconnect();
  relayServer?.closeAllConnections();
  await new Promise<void>((resolve) => relayServer?.close(() => resolve()));
  await database?.drop().catch(() => undefined);
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${redisPrefix}:*`);
  if (keys.length) await redis.unlink(...keys);
  redis.disconnect();
});

beforeEach(() => {
  relayCalls.length = 0;
  relayAnswer = ok;
});

/** Everything the registration domain function needs, with a scheduler that records instead of queueing. */
function registrationContext(scheduled: { id: number; registrationKey: string }[]) {
  return {
    store: repo,
    relayConfigured: true,
    requestId: 'req-1',
    scheduler: {
      schedule: async (d: { id: number; registrationKey: string }) =>
        void scheduled.push({ id: d.id, registrationKey: d.registrationKey }),
    },
  };
}

const registrationInput = (pushAccountId: number, key = publicKey()) => ({
  tokenKind: 'fcm' as const,
  pushAccountId,
  pushPublicKey: key,
  bouncerPublicKey: 'bk',
  encryptedPushRegistration: 'enc',
});

async function outboxTypes(): Promise<{ status: string; push_account_id: number }[]> {
  const rows = await prisma.outbox.findMany({ orderBy: { id: 'asc' } });
  return rows
    .filter((r) => r.routingKey === 'push_device.updated')
    .map((r) => (r.envelope as { payload: { status: string; push_account_id: number } }).payload)
    .map(({ status, push_account_id }) => ({ status, push_account_id }));
}

describe('device registration', () => {
  it('records a pending device with its event, registers it at the relay, and ignores a repeat', async () => {
    const scheduled: { id: number; registrationKey: string }[] = [];
    await registerDevice(registrationContext(scheduled), user, registrationInput(100));
    expect(scheduled).toHaveLength(1);
    const pending = (await repo.devicesOfUser(user.userId)).find((d) => d.pushAccountId === 100)!;
    expect(pending).toMatchObject({ status: 'pending', relayDeviceId: null, realmId: 3 });

    const job = {
      data: { deviceId: scheduled[0]!.id, registrationKey: scheduled[0]!.registrationKey, requestId: 'r' },
      attemptsMade: 0,
      opts: { attempts: 3 },
    };
    expect(
      await runRegistration({ repo, relay: relayClient(), logger }, job as unknown as JobOf<'push-register'>),
    ).toBe('active');
    expect(await repo.deviceById(pending.id)).toMatchObject({
      status: 'active',
      relayDeviceId: 'relay-1',
      errorCode: null,
    });
    expect(relayCalls[0]!.key).toBe(`register-${pending.id}-${pending.registrationKey}`);
    // The same job again (a redelivery) finds nothing pending.
    expect(
      await runRegistration({ repo, relay: relayClient(), logger }, job as unknown as JobOf<'push-register'>),
    ).toBe('superseded');
    expect(relayCalls).toHaveLength(1);

    await registerDevice(registrationContext(scheduled), user, registrationInput(100));
    expect(scheduled).toHaveLength(1);
    expect((await outboxTypes()).filter((e) => e.push_account_id === 100)).toEqual([
      { status: 'pending', push_account_id: 100 },
      { status: 'active', push_account_id: 100 },
    ]);
  });

  it("leaves transient relay failures to BullMQ's retries, and records the reason after the last attempt", async () => {
    const scheduled: { id: number; registrationKey: string }[] = [];
    await registerDevice(registrationContext(scheduled), user, registrationInput(200));
    relayAnswer = (_path, res) => res.writeHead(503).end('{}');
    const deps = { repo, relay: relayClient(), logger };
    const job = (attemptsMade: number) =>
      ({
        data: { deviceId: scheduled[0]!.id, ...scheduled[0]!, requestId: 'r' },
        attemptsMade,
        opts: { attempts: 2 },
      }) as unknown as JobOf<'push-register'>;
    await expect(runRegistration(deps, job(0))).rejects.toThrow(/server/);
    expect((await repo.deviceById(scheduled[0]!.id))!.status).toBe('pending');
    expect(await runRegistration(deps, job(1))).toBe('failed');
    expect(await repo.deviceById(scheduled[0]!.id)).toMatchObject({
      status: 'failed',
      errorCode: 'INTERNAL_SERVER_ERROR_ON_BOUNCER',
    });
  });

  it('lets an old registration job do nothing once the device registered again', async () => {
    const scheduled: { id: number; registrationKey: string }[] = [];
    relayAnswer = (_path, res) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"code":"REQUEST_EXPIRED"}');
    await registerDevice(registrationContext(scheduled), user, registrationInput(300));
    const first = {
      data: { deviceId: scheduled[0]!.id, ...scheduled[0]!, requestId: 'r' },
      attemptsMade: 0,
      opts: { attempts: 5 },
    };
    expect(
      await runRegistration({ repo, relay: relayClient(), logger }, first as unknown as JobOf<'push-register'>),
    ).toBe('failed');
    expect(await repo.deviceById(scheduled[0]!.id)).toMatchObject({ status: 'failed', errorCode: 'REQUEST_EXPIRED' });
    // A failed registration may be made again: new key, pending, queued again.
    await registerDevice(registrationContext(scheduled), user, registrationInput(300));
    expect(scheduled).toHaveLength(2);
    expect(scheduled[1]!.id).toBe(scheduled[0]!.id);
    expect(scheduled[1]!.registrationKey).not.toBe(scheduled[0]!.registrationKey);
    relayAnswer = ok;
    expect(
      await runRegistration({ repo, relay: relayClient(), logger }, first as unknown as JobOf<'push-register'>),
    ).toBe('superseded');
    expect((await repo.deviceById(scheduled[0]!.id))!.status).toBe('pending');
  });

  it('queues one BullMQ job per registration, however often it is scheduled (the sweep relies on it)', async () => {
    const queue = new RegistrationQueue(
      { redis: redisAt(redisPrefix), registerAttempts: 3, registerBackoffMs: 1000 },
      logger,
    );
    const device = { id: 987, registrationKey: '5b0c2a43-6a4c-4d0e-9a59-0d3e8c0f7f11' };
    await queue.schedule(device, 'a');
    await queue.schedule(device, 'b');
    await queue.close();
    const inspect = new Queue<JobCatalog['push-register']['data']>(REGISTER_QUEUE, {
      ...bullOptions(redisAt(redisPrefix)),
    });
    const jobs = await inspect.getJobs(['wait', 'delayed', 'prioritized']);
    expect(jobs.map((j) => j.id)).toEqual([`register-987-${device.registrationKey}`]);
    expect(jobs[0]!.opts).toMatchObject({ attempts: 3, backoff: { type: 'exponential', delay: 1000 } });
    await inspect.obliterate({ force: true });
    await inspect.close();
  });
});

describe('test notifications', () => {
  async function activeDevice(pushAccountId: number) {
    const scheduled: { id: number; registrationKey: string }[] = [];
    await registerDevice(registrationContext(scheduled), user, registrationInput(pushAccountId));
    const job = {
      data: { deviceId: scheduled[0]!.id, ...scheduled[0]!, requestId: 'r' },
      attemptsMade: 0,
      opts: { attempts: 1 },
    };
    await runRegistration({ repo, relay: relayClient(), logger }, job as unknown as JobOf<'push-register'>);
    return (await repo.deviceById(scheduled[0]!.id))!;
  }

  it('runs as a BullMQ job the request waits for, and a re-run of the same job sends nothing twice', async () => {
    const a = await activeDevice(401);
    const b = await activeDevice(402);
    relayCalls.length = 0;
    const prefix = `${redisPrefix}:tests`;
    const worker = new Worker<JobCatalog['push-test']['data'], JobCatalog['push-test']['result']>(
      TEST_QUEUE,
      (job) => runTestNotification({ repo, relay: relayClient(), logger }, job),
      bullOptions(redisAt(prefix)),
    );
    const dispatcher = new TestNotificationQueue({ redis: redisAt(prefix), testWaitMs: 5000 }, logger);
    await dispatcher.ready();
    try {
      const outcome = await dispatcher.dispatch({
        userId: user.userId,
        realmId: user.realmId,
        deviceIds: [a.id, b.id],
        clientDeviceIds: [],
        requestId: 'req',
      });
      expect(outcome).toEqual({ result: 'sent', devices: 2 });
      expect(relayCalls.map((c) => c.body.push_account_id).sort()).toEqual([401, 402]);
      const jobId = relayCalls[0]!.key!.split(':')[0]!;
      expect(new Set(relayCalls.map((c) => c.key))).toEqual(new Set([`${jobId}:${a.id}`, `${jobId}:${b.id}`]));

      // What a worker that stalled after sending would leave behind: the job runs again, with what it recorded.
      const queue = new Queue<JobCatalog['push-test']['data'], JobCatalog['push-test']['result']>(TEST_QUEUE, {
        ...bullOptions(redisAt(prefix)),
      });
      const stored = (await Job.fromId(queue, jobId))!;
      expect(stored.data.delivered?.sort()).toEqual([a.id, b.id].sort());
      relayCalls.length = 0;
      expect(await runTestNotification({ repo, relay: relayClient(), logger }, stored as JobOf<'push-test'>)).toEqual({
        result: 'sent',
        devices: 2,
      });
      expect(relayCalls).toEqual([]);
      await queue.close();
    } finally {
      await worker.close();
      await dispatcher.close();
    }
  });

  it('answers FAILED_TO_CONNECT_BOUNCER when no worker takes the job in time, and takes the job back', async () => {
    const device = await activeDevice(501);
    const prefix = `${redisPrefix}:noworker`;
    const dispatcher = new TestNotificationQueue({ redis: redisAt(prefix), testWaitMs: 1000 }, logger);
    await dispatcher.ready();
    const started = Date.now();
    const outcome = await dispatcher.dispatch({
      userId: user.userId,
      realmId: user.realmId,
      deviceIds: [device.id],
      clientDeviceIds: [],
      requestId: 'req',
    });
    expect(outcome).toEqual({ result: 'FAILED_TO_CONNECT_BOUNCER' });
    expect(Date.now() - started).toBeLessThan(2000);
    await dispatcher.close();
    const queue = new Queue(TEST_QUEUE, bullOptions(redisAt(prefix)));
    expect(await queue.getJobCounts('wait', 'active', 'delayed')).toEqual({ wait: 0, active: 0, delayed: 0 });
    await queue.close();
  });

  it('sends nothing once the request stopped waiting, and reports devices that are gone', async () => {
    const device = await activeDevice(601);
    relayCalls.length = 0;
    const job = (data: Partial<JobCatalog['push-test']['data']>) =>
      ({
        id: 'j1',
        data: {
          userId: user.userId,
          realmId: user.realmId,
          deviceIds: [device.id],
          requestId: 'r',
          deadline: Date.now() + 5000,
          ...data,
        },
        updateData: async () => undefined,
      }) as unknown as JobOf<'push-test'>;
    const deps = { repo, relay: relayClient(), logger };
    expect(await runTestNotification(deps, job({ deadline: Date.now() - 1 }))).toEqual({
      result: 'FAILED_TO_CONNECT_BOUNCER',
    });
    expect(await runTestNotification(deps, job({ userId: 999 }))).toEqual({ result: 'NO_ACTIVE_PUSH_DEVICE' });
    expect(await runTestNotification(deps, job({ deviceIds: [2_147_483_648] }))).toEqual({
      result: 'NO_ACTIVE_PUSH_DEVICE',
    });
    expect(relayCalls).toEqual([]);
    relayAnswer = (_path, res) => res.writeHead(402).end('{}');
    expect(await runTestNotification(deps, job({}))).toEqual({ result: 'ADMIN_ACTION_REQUIRED' });
  });
});

describe('client devices (feature levels 468 and 470)', () => {
  const pushKey = () => Buffer.concat([Buffer.from([0x31]), randomBytes(32)]).toString('base64');
  const tokenId = () => randomBytes(8).toString('base64');
  const token = (id = tokenId()) => ({
    tokenKind: 'fcm' as const,
    tokenId: id,
    bouncerPublicKey: 'bk',
    encryptedPushRegistration: 'enc',
  });
  type Scheduled = { kind?: string; id: number; registrationKey: string };

  async function deviceEvents(deviceId: number): Promise<Record<string, unknown>[]> {
    const rows = await prisma.outbox.findMany({ orderBy: { id: 'asc' } });
    return rows
      .filter((r) => r.routingKey === 'client_device.changed')
      .map((r) => (r.envelope as { payload: Record<string, unknown> }).payload)
      .filter((p) => p.device_id === deviceId)
      .map(({ op, changes }) => ({ op, changes }));
  }

  /** Runs the registration job of a client device's token as the worker would, on its first attempt of three. */
  function registerJob(deviceId: number, registrationKey: string): Promise<string> {
    const job = {
      data: { kind: 'client', deviceId, registrationKey, requestId: 'r' },
      attemptsMade: 0,
      opts: { attempts: 3 },
    };
    return runRegistration({ repo, relay: relayClient(), logger }, job as unknown as JobOf<'push-register'>);
  }

  function context(scheduled: Scheduled[]) {
    return {
      store: repo,
      relayConfigured: true,
      requestId: 'req-c',
      scheduler: { schedule: async (r: Scheduled) => void scheduled.push(r) },
    };
  }

  it('registers a device, its key and token, completes the token at the relay, and removes the device', async () => {
    const scheduled: Scheduled[] = [];
    const ctx = context(scheduled);
    const id = await registerClientDevice(ctx, user);
    const key = pushKey();
    const tid = tokenId();
    await registerPushDevice(ctx, user, { deviceId: id, key: { pushKeyId: 7, pushKey: key }, token: token(tid) });
    expect(scheduled).toEqual([{ kind: 'client', id, registrationKey: expect.any(String) }]);
    expect(await repo.clientDevice(id)).toMatchObject({ pushKeyId: 7, pushKey: key, pendingPushTokenId: tid });

    // While the relay has not answered, a second token is refused; the same request again changes nothing.
    await expect(registerPushDevice(ctx, user, { deviceId: id, key: null, token: token() })).rejects.toMatchObject({
      message: 'A registration for the device already in progress.',
    });

    const register = () => registerJob(id, scheduled[0]!.registrationKey);
    expect(await register()).toBe('active');
    expect(relayCalls[0]!.body).toEqual({
      realm_id: 3,
      token_id: tid,
      token_kind: 'fcm',
      bouncer_public_key: 'bk',
      encrypted_push_registration: 'enc',
    });
    expect(await repo.clientDevice(id)).toMatchObject({
      pushTokenId: tid,
      pendingPushTokenId: null,
      relayDeviceId: 'relay-1',
    });
    // A redelivered job finds nothing pending.
    expect(await register()).toBe('superseded');

    // The same key and token again: nothing to do. A new key alone rotates the key.
    await registerPushDevice(ctx, user, { deviceId: id, key: { pushKeyId: 7, pushKey: key }, token: token(tid) });
    await registerPushDevice(ctx, user, { deviceId: id, key: { pushKeyId: 8, pushKey: key }, token: null });
    expect(scheduled).toHaveLength(1);

    // Someone else's device is not theirs to change.
    const other = { ...user, userId: 42 };
    await expect(removeClientDevice(ctx, other, id)).rejects.toMatchObject({ message: 'Invalid `device_id`' });
    await removeClientDevice(ctx, user, id);
    expect(await repo.clientDevice(id)).toBeNull();
    await expect(removeClientDevice(ctx, user, id)).rejects.toMatchObject({ message: 'Invalid `device_id`' });

    expect(await deviceEvents(id)).toEqual([
      { op: 'add', changes: {} },
      {
        op: 'update',
        changes: {
          push_key_id: 7,
          pending_push_token_id: tid,
          push_token_last_updated_timestamp: expect.any(Number),
          push_registration_error_code: null,
        },
      },
      { op: 'update', changes: { push_token_id: tid, pending_push_token_id: null } },
      { op: 'update', changes: { push_key_id: 8 } },
      { op: 'remove', changes: {} },
    ]);
  });

  it("refuses incomplete or malformed registrations with Zulip's texts, changing nothing", async () => {
    const scheduled: Scheduled[] = [];
    const ctx = context(scheduled);
    const id = await registerClientDevice(ctx, user);
    const attempt = (input: Partial<Parameters<typeof registerPushDevice>[2]>) =>
      registerPushDevice(ctx, user, { deviceId: id, key: null, token: null, ...input });
    await expect(attempt({})).rejects.toMatchObject({
      message: 'Missing parameters: must provide either all push key fields, all token fields, or both.',
    });
    await expect(attempt({ key: { pushKeyId: 1, pushKey: pushKey() } })).rejects.toMatchObject({
      message: 'No push registration exists to rotate key for.',
    });
    await expect(attempt({ token: token() })).rejects.toMatchObject({
      message: 'No push registration exists to rotate token for.',
    });
    const wrongTag = Buffer.concat([Buffer.from([0x32]), randomBytes(32)]).toString('base64');
    for (const bad of [wrongTag, randomBytes(32).toString('base64'), 'not base64!']) {
      await expect(attempt({ key: { pushKeyId: 1, pushKey: bad }, token: token() })).rejects.toMatchObject({
        message: 'Invalid `push_key`',
      });
    }
    await expect(attempt({ key: { pushKeyId: 1, pushKey: pushKey() }, token: token('%%') })).rejects.toMatchObject({
      message: '`token_id` is not Base64 encoded',
    });
    await expect(
      attempt({ deviceId: 2 ** 31 - 1, key: { pushKeyId: 1, pushKey: pushKey() }, token: token() }),
    ).rejects.toMatchObject({
      message: 'Invalid `device_id`',
    });
    await expect(
      registerPushDevice({ ...ctx, relayConfigured: false }, user, { deviceId: id, key: null, token: token() }),
    ).rejects.toMatchObject({ code: 'PUSH_SERVICE_NOT_CONFIGURED' });
    expect(scheduled).toEqual([]);
    expect(await deviceEvents(id)).toEqual([{ op: 'add', changes: {} }]);
  });

  it('records a refused token registration, then accepts a new token at once', async () => {
    const scheduled: Scheduled[] = [];
    const ctx = context(scheduled);
    const id = await registerClientDevice(ctx, user);
    await registerPushDevice(ctx, user, { deviceId: id, key: { pushKeyId: 1, pushKey: pushKey() }, token: token() });
    relayAnswer = (_path, res) =>
      res.writeHead(400, { 'content-type': 'application/json' }).end('{"code":"INVALID_BOUNCER_PUBLIC_KEY"}');
    expect(await registerJob(id, scheduled[0]!.registrationKey)).toBe('failed');
    expect(await repo.clientDevice(id)).toMatchObject({ errorCode: 'INVALID_BOUNCER_PUBLIC_KEY', pushTokenId: null });
    // An answer for a registration that is no longer the device's changes nothing.
    expect(
      await finishClientRegistration(
        repo,
        id,
        scheduled[0]!.registrationKey,
        { status: 'active', relayDeviceId: 'x' },
        null,
      ),
    ).toBe(false);

    const tid = tokenId();
    await registerPushDevice(ctx, user, { deviceId: id, key: null, token: token(tid) });
    expect(scheduled).toHaveLength(2);
    expect(await repo.clientDevice(id)).toMatchObject({ errorCode: null, pendingPushTokenId: tid });
    expect((await deviceEvents(id)).slice(2)).toEqual([
      { op: 'update', changes: { push_registration_error_code: 'INVALID_BOUNCER_PUBLIC_KEY' } },
      {
        op: 'update',
        changes: {
          pending_push_token_id: tid,
          push_token_last_updated_timestamp: expect.any(Number),
          push_registration_error_code: null,
        },
      },
    ]);
  });

  it('sends a test notification encrypted with the push key, naming the key in clear', async () => {
    const scheduled: Scheduled[] = [];
    const ctx = context(scheduled);
    const other = { ...user, userId: 77 };
    const id = await registerClientDevice(ctx, other);
    const keyBytes = randomBytes(32);
    const key = Buffer.concat([Buffer.from([0x31]), keyBytes]).toString('base64');
    await registerPushDevice(ctx, other, { deviceId: id, key: { pushKeyId: 4242, pushKey: key }, token: token() });
    await finishClientRegistration(
      repo,
      id,
      scheduled[0]!.registrationKey,
      { status: 'active', relayDeviceId: 'relay-c' },
      null,
    );

    const job = {
      id: 'job-c',
      data: {
        userId: 77,
        realmId: 3,
        deviceIds: [],
        clientDeviceIds: [id],
        requestId: 'r',
        deadline: Date.now() + 10_000,
      },
      updateData: async () => undefined,
    };
    expect(
      await runTestNotification({ repo, relay: relayClient(), logger }, job as unknown as JobOf<'push-test'>),
    ).toEqual({ result: 'sent', devices: 1 });
    const sent = relayCalls.find((c) => c.path.endsWith('/notify'))!;
    expect(sent.key).toBe(`job-c:c${id}`);
    expect(sent.body).toMatchObject({ device_id: 'relay-c', push_key_id: 4242, priority: 'high' });
    expect(sent.body).not.toHaveProperty('push_account_id');
    const packed = Buffer.from(sent.body.encrypted_data as string, 'base64');
    const opened = sodium.crypto_secretbox_open_easy(packed.subarray(24), packed.subarray(0, 24), keyBytes);
    expect(JSON.parse(Buffer.from(opened).toString('utf8'))).toEqual({
      type: 'test',
      user_id: 77,
      realm_id: 3,
      time: expect.any(Number),
    });
  });
});
