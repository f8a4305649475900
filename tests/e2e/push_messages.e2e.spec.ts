import { createHash } from 'node:crypto';
import sodium from 'libsodium-wrappers';
import { Client } from 'pg';
import { ApiClient, type DevUserName, type ManagedProcess, type World } from '@confab/devkit';
import { expectSuccess } from './support/expect';
import { RelayStub, type RelayRequest } from './support/relay-stub';
import { exclusively, newWorld, startExtraProcess, system } from './support/system';

/**
 * Push notifications of new messages (issue 29), through the gateway, with a relay stub on 127.0.0.1. The relay is
 * process configuration, so a second push, push-worker and settings (sharing the system's databases and broker, with
 * BullMQ keys under a prefix of their own) point at the stub, behind a second gateway; the system's own push service
 * has no relay and so does not take the notification events (services/push/README.md).
 */
const SERVER_ID = 'confab-e2e-messages';
const SERVER_KEY = 'e2e-relay-key-messages-0123';

jest.setTimeout(120_000);

let stub: RelayStub;
let world: World;
let gatewayUrl: string;
/** The extra push process's internal metrics listener (never its API port). */
let pushMetricsUrl: string;
const extras: ManagedProcess[] = [];
/** The relay-configured push service takes every message event: one such file at a time (support/system.ts). */
let release: (() => void) | undefined;

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 30_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A client of the gateway whose push and settings services use the relay stub. */
function as(name: DevUserName): ApiClient {
  const user = world.user(name);
  return new ApiClient(gatewayUrl, { host: world.host, forwardedFor: world.clientAddress }).withCredentials(
    user.email,
    user.apiKey,
  );
}

/** A phone of a user: a client device (feature level 468, secretbox key) or a push device (level 406, key pair). */
interface Phone {
  owner: DevUserName;
  /** The id the relay's notify requests carry in clear for it. */
  matches: (delivery: RelayRequest) => boolean;
  open: (delivery: RelayRequest) => Record<string, unknown>;
}

let nextKeyId = 1000;

/** The Flutter app's registration: POST /register_client_device, then POST /mobile_push/register with both groups. */
async function clientPhone(owner: DevUserName): Promise<Phone> {
  const app = as(owner);
  const created = await app.post('/register_client_device');
  expectSuccess(created, 'POST', '/register_client_device', { undocumented: true });
  const deviceId = created.body.device_id as number;
  const key = sodium.crypto_secretbox_keygen();
  const pushKeyId = nextKeyId++;
  const tokenId = b64(createHash('sha256').update(`fcm-token-${owner}-${pushKeyId}`).digest().subarray(0, 8));
  expectSuccess(
    await app.post('/mobile_push/register', {
      device_id: deviceId,
      push_key_id: pushKeyId,
      push_key: b64(Buffer.concat([Buffer.from([0x31]), Buffer.from(key)])),
      token_kind: 'fcm',
      token_id: tokenId,
      bouncer_public_key: 'mm4F/3WLqECY637NulC5j/ZeHkmpwmtlfIxwt8MfREM=',
      encrypted_push_registration: 'c2VhbGVkLWJ5LXRoZS1hcHA=',
    }),
    'POST',
    '/mobile_push/register',
  );
  await until(`${owner}'s client device registered at the relay`, async () => {
    const state = await app.post('/register', { fetch_event_types: JSON.stringify(['device']) });
    return state.body.devices?.[String(deviceId)]?.push_token_id === tokenId;
  });
  return {
    owner,
    matches: (d) => d.body.push_key_id === pushKeyId,
    open: (d) => {
      const packed = Buffer.from(d.body.encrypted_data as string, 'base64');
      const opened = sodium.crypto_secretbox_open_easy(packed.subarray(24), packed.subarray(0, 24), key);
      return JSON.parse(Buffer.from(opened).toString('utf8')) as Record<string, unknown>;
    },
  };
}

/** A push device of feature level 406 (POST /mobile_push/register with push_account_id and a public key). */
async function pushPhone(owner: DevUserName): Promise<Phone> {
  const app = as(owner);
  const keys = sodium.crypto_box_keypair();
  const pushAccountId = nextKeyId++;
  expectSuccess(
    await app.post('/mobile_push/register', {
      token_kind: 'fcm',
      push_account_id: pushAccountId,
      push_public_key: b64(keys.publicKey),
      bouncer_public_key: 'relay-key-2025',
      encrypted_push_registration: `sealed-token-for-${pushAccountId}`,
    }),
    'POST',
    '/mobile_push/register',
  );
  await until(`${owner}'s push device active`, async () => {
    const devices = (await app.get('/mobile_push/devices')).body.devices as {
      push_account_id: number;
      status: string;
    }[];
    return devices.some((d) => d.push_account_id === pushAccountId && d.status === 'active');
  });
  return {
    owner,
    matches: (d) => d.body.push_account_id === pushAccountId,
    open: (d) => {
      const sealed = Buffer.from(d.body.encrypted_data as string, 'base64');
      const opened = sodium.crypto_box_seal_open(sealed, keys.publicKey, keys.privateKey);
      return JSON.parse(Buffer.from(opened).toString('utf8')) as Record<string, unknown>;
    },
  };
}

const phones: Phone[] = [];
const phonesOf = (owner: DevUserName) => phones.filter((p) => p.owner === owner);

/** What a phone received so far, decrypted. */
function received(phone: Phone): Record<string, unknown>[] {
  return stub.deliveries.filter((d) => d.path.endsWith('/e2ee/notify') && phone.matches(d)).map((d) => phone.open(d));
}

const notificationsOf = (phone: Phone, messageId: number) =>
  received(phone).filter((p) => p.type === 'message' && p.message_id === messageId);

/** Waits until each of the user's phones has the message's notification; returns one payload per phone. */
async function notified(owner: DevUserName, messageId: number): Promise<Record<string, unknown>[]> {
  const mine = phonesOf(owner);
  await until(`${owner} notified of message ${messageId}`, () =>
    mine.every((p) => notificationsOf(p, messageId).length > 0),
  );
  return mine.map((p) => {
    const got = notificationsOf(p, messageId);
    expect(got).toHaveLength(1);
    return got[0]!;
  });
}

/** Checked again at the end, when every job has long finished: the message reached none of these users' phones. */
const mustNotNotify: { owner: DevUserName; messageId: number }[] = [];
function expectNotNotified(owner: DevUserName, messageId: number): void {
  mustNotNotify.push({ owner, messageId });
  for (const phone of phonesOf(owner)) expect(notificationsOf(phone, messageId)).toEqual([]);
}

async function send(from: DevUserName, params: Record<string, unknown>): Promise<number> {
  const response = await as(from).post('/messages', params);
  expectSuccess(response, 'POST', '/messages');
  return response.body.id as number;
}

const dm = (from: DevUserName, to: DevUserName[], content: string) =>
  send(from, { type: 'direct', to: JSON.stringify(to.map((n) => world.user(n).id)), content });

const toChannel = (from: DevUserName, channel: string, topic: string, content: string) =>
  send(from, { type: 'stream', to: channel, topic, content });

/**
 * The user's next request to messaging waits until messaging has applied their own earlier changes (read-your-
 * writes); events published before are then in the push service's queue before any message sent afterwards.
 */
async function settled(name: DevUserName): Promise<void> {
  expectSuccess(await as(name).get('/users/me/subscriptions'), 'GET', '/users/me/subscriptions');
}

async function channelId(name: string): Promise<number> {
  const response = await as('desdemona').get('/get_stream_id', { stream: name });
  return response.body.stream_id as number;
}

/** A notification's status in the push service's database (message_notifications): a point to wait for. */
async function notificationStatus(messageId: number, userId: number): Promise<string | null> {
  const db = new Client({ connectionString: system().databases.push });
  await db.connect();
  try {
    const result = await db.query<{ status: string }>(
      'SELECT status FROM message_notifications WHERE message_id = $1 AND user_id = $2',
      [messageId, userId],
    );
    return result.rows[0]?.status ?? null;
  } finally {
    await db.end();
  }
}

beforeAll(async () => {
  release = await exclusively('relay-push');
  await sodium.ready;
  stub = new RelayStub(SERVER_ID, SERVER_KEY);
  await stub.start();
  world = await newWorld({ name: 'Push Messages Org' });
  const relayEnv = {
    CONFAB_PUSH_RELAY_URL: stub.url,
    CONFAB_PUSH_RELAY_SERVER_ID: SERVER_ID,
    CONFAB_PUSH_RELAY_SERVER_KEY: SERVER_KEY,
    PUSH_RELAY_TIMEOUT_MS: '2000',
    PUSH_NOTIFY_BACKOFF_MS: '300',
    PUSH_REGISTER_ATTEMPTS: '5',
    CONFAB_REDIS_PREFIX: `${system().redisPrefix}:pushmsg`,
  };
  const [push, worker, settings] = await Promise.all([
    startExtraProcess('push', relayEnv),
    startExtraProcess('push-worker', relayEnv),
    startExtraProcess('settings', { CONFAB_PUSH_RELAY_URL: stub.url }),
  ]);
  extras.push(push.process, worker.process, settings.process);
  pushMetricsUrl = `${push.metricsUrl}/metrics`;
  const gateway = await startExtraProcess('gateway', { PUSH_URL: push.url, SETTINGS_URL: settings.url });
  extras.push(gateway.process);
  gatewayUrl = gateway.url;
  for (const owner of ['othello', 'cordelia', 'prospero', 'hamlet'] as const) phones.push(await clientPhone(owner));
  phones.push(await pushPhone('othello'));
}, 720_000);

afterAll(async () => {
  await Promise.all(extras.map((p) => p.stop()));
  await stub?.stop();
  release?.();
});

afterEach(() => {
  stub.mode = 'accept';
});

describe('push notifications of new messages', () => {
  it('reports push_notifications_enabled where a relay is configured', async () => {
    const response = await new ApiClient(gatewayUrl, { host: world.host }).get('/server_settings');
    expect(response.body.push_notifications_enabled).toBe(true);
  });

  it('sends a direct message to each device of the away recipient, encrypted to the payload the Flutter app parses, and nothing to the sender', async () => {
    const othello = world.user('othello');
    const hamlet = world.user('hamlet');
    const id = await dm('hamlet', ['othello'], 'Are you **there**? <3');
    const payloads = await notified('othello', id);
    expect(payloads).toHaveLength(2);
    const expected = {
      type: 'message',
      realm_url: world.realm.url,
      user_id: othello.id,
      sender_id: hamlet.id,
      sender_full_name: hamlet.fullName,
      sender_avatar_url: expect.stringMatching(/^https:\/\//),
      message_id: id,
      time: expect.any(Number),
      content: 'Are you there? <3',
      recipient_type: 'direct',
      recipient_user_ids: [hamlet.id, othello.id].sort((a, b) => a - b),
    };
    expect(payloads[0]).toMatchObject(expected);
    // The push device (feature level 406) also finds its push account id inside.
    expect(payloads[1]).toMatchObject({ ...expected, push_account_id: expect.any(Number) });
    expect(payloads[0]).not.toHaveProperty('channel_id');
    expectNotNotified('hamlet', id);
  });

  it('notifies a personal mention in a channel, with the channel and topic', async () => {
    const othello = world.user('othello');
    const id = await toChannel('hamlet', 'Denmark', 'castle', `@**${othello.fullName}** the ghost walks`);
    const [payload] = await notified('othello', id);
    expect(payload).toMatchObject({
      type: 'message',
      message_id: id,
      recipient_type: 'channel',
      channel_id: await channelId('Denmark'),
      channel_name: 'Denmark',
      topic: 'castle',
    });
    // Everyone else is subscribed too, but a channel without push on notifies only the mentioned.
    expectNotNotified('cordelia', id);
  });

  it('notifies an alert word', async () => {
    expectSuccess(
      await as('cordelia').post('/users/me/alert_words', { alert_words: JSON.stringify(['pineapple']) }),
      'POST',
      '/users/me/alert_words',
    );
    await settled('cordelia');
    const id = await toChannel('hamlet', 'Denmark', 'fruit', 'Who brought the pineapple?');
    const [payload] = await notified('cordelia', id);
    expect(payload).toMatchObject({ message_id: id, topic: 'fruit' });
    expectNotNotified('othello', id);
  });

  it('notifies a followed topic', async () => {
    const scotland = await channelId('Scotland');
    expectSuccess(
      await as('othello').post('/user_topics', { stream_id: scotland, topic: 'heath', visibility_policy: 3 }),
      'POST',
      '/user_topics',
    );
    const id = await toChannel('hamlet', 'Scotland', 'heath', 'Thunder and lightning.');
    const [payload] = await notified('othello', id);
    expect(payload).toMatchObject({ message_id: id, channel_id: scotland, topic: 'heath' });
    expectNotNotified('cordelia', id);
  });

  it('notifies a channel with push notifications on, but not in a topic muted there', async () => {
    const rome = await channelId('Rome');
    for (const name of ['othello', 'cordelia'] as const) {
      expectSuccess(
        await as(name).post('/users/me/subscriptions/properties', {
          subscription_data: JSON.stringify([{ stream_id: rome, property: 'push_notifications', value: true }]),
        }),
        'POST',
        '/users/me/subscriptions/properties',
      );
    }
    expectSuccess(
      await as('cordelia').post('/user_topics', { stream_id: rome, topic: 'senate', visibility_policy: 1 }),
      'POST',
      '/user_topics',
    );
    const loud = await toChannel('hamlet', 'Rome', 'forum', 'Friends, Romans, countrymen');
    await notified('othello', loud);
    await notified('cordelia', loud);
    const quiet = await toChannel('hamlet', 'Rome', 'senate', 'Beware the ides of March');
    await notified('othello', quiet);
    expectNotNotified('cordelia', quiet);
  });

  it('does not notify a present user whose online push notifications are off', async () => {
    expectSuccess(
      await as('prospero').patch('/settings', { enable_online_push_notifications: false }),
      'PATCH',
      '/settings',
    );
    await settled('prospero');
    expectSuccess(
      await as('prospero').post('/users/me/presence', { status: 'active', new_user_input: true }),
      'POST',
      '/users/me/presence',
    );
    // One message to both: the job decides both at once, so Cordelia's notification means Prospero's is decided.
    const id = await dm('hamlet', ['prospero', 'cordelia'], 'The isle is full of noises');
    const [payload] = await notified('cordelia', id);
    expect(payload).toMatchObject({
      recipient_user_ids: [world.user('hamlet').id, world.user('prospero').id, world.user('cordelia').id].sort(
        (a, b) => a - b,
      ),
    });
    expectNotNotified('prospero', id);
  });

  it('sends "remove" to the devices that showed a message once it is read', async () => {
    const id = await dm('hamlet', ['othello'], 'Read me and I vanish');
    await notified('othello', id);
    expectSuccess(
      await as('othello').post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'read' }),
      'POST',
      '/messages/flags',
    );
    for (const phone of phonesOf('othello')) {
      const removal = await until('the removal', () =>
        received(phone).find((p) => p.type === 'remove' && (p.message_ids as number[]).includes(id)),
      );
      expect(removal).toMatchObject({
        type: 'remove',
        realm_url: world.realm.url,
        user_id: world.user('othello').id,
        message_ids: [id],
      });
    }
  });

  it('does not notify a message read before its notification went out', async () => {
    // Cordelia reads on another client while the relay is unreachable; when it is back, nothing is sent for it.
    await stub.stop();
    const id = await dm('hamlet', ['cordelia'], 'Already seen');
    await until('the notification job to have tried', async () => {
      const metrics = await (await fetch(pushMetricsUrl)).text();
      return /job_queue_depth\{[^}]*queue="push-message",state="delayed"[^}]*\} [1-9]/.test(metrics);
    });
    expectSuccess(
      await as('cordelia').post('/messages/flags', { messages: JSON.stringify([id]), op: 'add', flag: 'read' }),
      'POST',
      '/messages/flags',
    );
    // The push service hears of the read by an event; the relay comes back only once it has.
    await until('the push service to have applied the read', () =>
      notificationStatus(id, world.user('cordelia').id).then((status) => status === 'read'),
    );
    await stub.start();
    const marker = await dm('hamlet', ['cordelia'], 'After the outage');
    await notified('cordelia', marker);
    expectNotNotified('cordelia', id);
  });

  it('delivers exactly once per device after a relay outage, and when the relay acted but its answer was lost', async () => {
    await stub.stop();
    const id = await dm('hamlet', ['othello'], 'Through the storm');
    await until('the notification job to have tried', async () => {
      const metrics = await (await fetch(pushMetricsUrl)).text();
      return /job_queue_depth\{[^}]*queue="push-message",state="delayed"[^}]*\} [1-9]/.test(metrics);
    });
    await stub.start();
    await notified('othello', id);

    stub.mode = 'lose-first-answer';
    const lost = await dm('hamlet', ['othello'], 'Did you get this?');
    await notified('othello', lost);
    // One request acted on per device and message (the retry carried the same idempotency key).
    const keys = stub.deliveries.filter((d) => String(d.idempotencyKey).startsWith(`message:${lost}:`));
    expect(keys).toHaveLength(phonesOf('othello').length);
  });

  it('never notified those it must not (checked again once every job has finished)', async () => {
    const marker = await dm('hamlet', ['othello', 'cordelia', 'prospero'], 'Last call');
    await notified('othello', marker);
    await notified('cordelia', marker);
    for (const { owner, messageId } of mustNotNotify) {
      for (const phone of phonesOf(owner)) expect(notificationsOf(phone, messageId)).toEqual([]);
    }
    // No phone ever got a notification twice.
    for (const phone of phones) {
      const ids = received(phone)
        .filter((p) => p.type === 'message')
        .map((p) => p.message_id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });
});
