import { createHash } from 'node:crypto';
import sodium from 'libsodium-wrappers';
import { ApiClient, serviceToken, type DevUserName, type ManagedProcess, type World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { RelayStub } from './support/relay-stub';
import { exclusively, newWorld, startExtraProcess, system } from './support/system';

/**
 * The push service against a relay stub on 127.0.0.1. The relay is process configuration, so a second deployment
 * of push, push-worker and settings (sharing the first one's databases) points at the stub, behind a second
 * gateway; its BullMQ keys live under their own prefix so the first push-worker (which has no relay) never takes
 * its jobs. The first gateway reaches the unconfigured push service.
 */
const SERVER_ID = 'confab-e2e';
const SERVER_KEY = 'e2e-relay-key-0123456789';
const NO_DEVICE = ['NO_ACTIVE_PUSH_DEVICE', 'No active registered push device'] as const;
const ADMIN = [
  'ADMIN_ACTION_REQUIRED',
  'Push notification configuration issue on server, contact the server administrator or retry later.',
] as const;
const NETWORK = [
  'FAILED_TO_CONNECT_BOUNCER',
  'Network error while connecting to Zulip push notification service.',
] as const;
const RELAY_5XX = [
  'INTERNAL_SERVER_ERROR_ON_BOUNCER',
  'Internal server error on Zulip push notification service, retry later.',
] as const;

// jest.config.js sets testTimeout per project, where Jest does not read it; the hang test alone needs 6+ s.
jest.setTimeout(60_000);

let world: World;
let stub: RelayStub;
let relayGatewayUrl: string;
let pushUrl: string;
let workerMetricsUrl: string;
let pushMetricsUrl: string;
const extras: ManagedProcess[] = [];
/** The relay-configured push service takes every message event: one such file at a time (support/system.ts). */
let release: (() => void) | undefined;

/** A client of the gateway whose push service uses the relay stub. */
function viaRelay(name: DevUserName): ApiClient {
  const user = world.user(name);
  return new ApiClient(relayGatewayUrl, { host: world.host, forwardedFor: world.clientAddress }).withCredentials(
    user.email,
    user.apiKey,
  );
}

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const notifications = () => stub.requests.filter((r) => r.path.endsWith('/e2ee/notify'));

interface Device {
  device_id: number;
  push_account_id: number;
  token_kind: string;
  status: string;
  error_code: string | null;
}

async function devicesOf(client: ApiClient): Promise<Device[]> {
  const response = await client.get('/mobile_push/devices');
  expectSuccess(response, 'GET', '/mobile_push/devices', { undocumented: true });
  return response.body.devices as Device[];
}

async function waitForDevice(client: ApiClient, pushAccountId: number, status: string): Promise<Device> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const device = (await devicesOf(client)).find((d) => d.push_account_id === pushAccountId);
    if (device?.status === status) return device;
    if (Date.now() > deadline) throw new Error(`device ${pushAccountId} is ${device?.status}, not ${status}`);
    await sleep(100);
  }
}

function registration(pushAccountId: number, publicKey: Uint8Array, tokenKind = 'fcm') {
  return {
    token_kind: tokenKind,
    push_account_id: pushAccountId,
    push_public_key: b64(publicKey),
    bouncer_public_key: 'relay-key-2025',
    encrypted_push_registration: `sealed-token-for-${pushAccountId}`,
  };
}

/** Registers a fresh key pair for the user and waits until the relay has confirmed it. */
async function activeDevice(name: DevUserName, pushAccountId: number) {
  const keys = sodium.crypto_box_keypair();
  const client = viaRelay(name);
  expectSuccess(
    await client.post('/mobile_push/register', registration(pushAccountId, keys.publicKey)),
    'POST',
    '/mobile_push/register',
  );
  const device = await waitForDevice(client, pushAccountId, 'active');
  return { keys, device };
}

beforeAll(async () => {
  release = await exclusively('relay-push');
  await sodium.ready;
  world = await newWorld({ name: 'Push Org' });
  stub = new RelayStub(SERVER_ID, SERVER_KEY);
  await stub.start();
  const relayEnv = {
    CONFAB_PUSH_RELAY_URL: stub.url,
    CONFAB_PUSH_RELAY_SERVER_ID: SERVER_ID,
    CONFAB_PUSH_RELAY_SERVER_KEY: SERVER_KEY,
    PUSH_RELAY_TIMEOUT_MS: '2000',
    PUSH_RELAY_ATTEMPTS: '3',
    PUSH_RELAY_BACKOFF_MS: '100',
    PUSH_TEST_WAIT_MS: '10000',
    PUSH_REGISTER_ATTEMPTS: '5',
    CONFAB_REDIS_PREFIX: `${system().redisPrefix}:relay`,
  };
  const [push, worker, settings] = await Promise.all([
    startExtraProcess('push', relayEnv),
    startExtraProcess('push-worker', relayEnv),
    startExtraProcess('settings', { CONFAB_PUSH_RELAY_URL: stub.url }),
  ]);
  extras.push(push.process, worker.process, settings.process);
  pushUrl = push.url;
  pushMetricsUrl = `${push.metricsUrl}/metrics`;
  workerMetricsUrl = `${worker.metricsUrl}/metrics`;
  const gateway = await startExtraProcess('gateway', { PUSH_URL: push.url, SETTINGS_URL: settings.url });
  extras.push(gateway.process);
  relayGatewayUrl = gateway.url;
}, 720_000);

afterAll(async () => {
  await Promise.all(extras.map((p) => p.stop()));
  await stub?.stop();
  release?.();
});

afterEach(() => {
  stub.mode = 'accept';
  stub.clear();
});

describe('POST /users/me/apns_device_token and POST /users/me/pushservice_device_token', () => {
  const token = 'c0ffee00'.repeat(8);

  it('registers an APNs token, again without complaint, and removes it once', async () => {
    const hamlet = world.as('hamlet');
    const params = { token, appid: 'org.zulip.Zulip' };
    expectSuccess(await hamlet.post('/users/me/apns_device_token', params), 'POST', '/users/me/apns_device_token');
    expectSuccess(await hamlet.post('/users/me/apns_device_token', params), 'POST', '/users/me/apns_device_token');
    // zulip-js sends DELETE parameters in the query string.
    const removed = await hamlet.delete('/users/me/apns_device_token', { token }, { encoding: 'query' });
    expectSuccess(removed, 'DELETE', '/users/me/apns_device_token');
    expectError(
      await hamlet.delete('/users/me/apns_device_token', { token }),
      400,
      'INVALID_PUSH_DEVICE_TOKEN',
      'Device not recognized',
    );
  });

  it("serves docs/api.md's pushservice_device_token path as the same APNs registration", async () => {
    const othello = world.as('othello');
    const added = await othello.post('/users/me/pushservice_device_token', { token, appid: 'org.zulip.Zulip' });
    expectSuccess(added, 'POST', '/users/me/pushservice_device_token', { undocumented: true });
    // Registered under either path, removable under the other: it is one token.
    expectSuccess(
      await othello.delete('/users/me/apns_device_token', { token }),
      'DELETE',
      '/users/me/apns_device_token',
    );
    expectError(
      await othello.delete('/users/me/pushservice_device_token', { token }),
      400,
      'INVALID_PUSH_DEVICE_TOKEN',
      'Device not recognized',
    );
  });

  it("answers Zulip's errors for bad tokens and app ids", async () => {
    for (const path of ['/users/me/apns_device_token', '/users/me/pushservice_device_token']) {
      const client = world.as('cordelia');
      expectError(
        await client.post(path, { token: '', appid: 'org.zulip.Zulip' }),
        400,
        'BAD_REQUEST',
        'Empty or invalid length token',
      );
      expectError(
        await client.post(path, { token: 'ab'.repeat(2049), appid: 'org.zulip.Zulip' }),
        400,
        'BAD_REQUEST',
        'Empty or invalid length token',
      );
      expectError(
        await client.post(path, { token: 'not-hex', appid: 'org.zulip.Zulip' }),
        400,
        'BAD_REQUEST',
        'Invalid APNS token',
      );
      expectError(await client.post(path, { token, appid: 'org.zulip/Zulip' }), 400, 'BAD_REQUEST', 'Invalid app ID');
      expectError(await client.post(path, { token }), 400, 'REQUEST_VARIABLE_MISSING', "Missing 'appid' argument");
      expectError(await client.delete(path, { token: 'zz' }), 400, 'BAD_REQUEST', 'Invalid APNS token');
    }
  });

  it("does not let one user remove another's token", async () => {
    expectSuccess(
      await world.as('prospero').post('/users/me/apns_device_token', { token, appid: 'org.zulip.Zulip' }),
      'POST',
      '/users/me/apns_device_token',
    );
    expectError(
      await world.as('aaron').delete('/users/me/apns_device_token', { token }),
      400,
      'INVALID_PUSH_DEVICE_TOKEN',
      'Device not recognized',
    );
    expectSuccess(
      await world.as('prospero').delete('/users/me/apns_device_token', { token }),
      'DELETE',
      '/users/me/apns_device_token',
    );
  });

  it('refuses bots', async () => {
    const response = await world
      .as('default-bot')
      .post('/users/me/apns_device_token', { token, appid: 'org.zulip.Zulip' });
    expectError(response, 400, 'BAD_REQUEST', 'This endpoint does not accept bot requests.');
  });
});

describe('POST /users/me/android_gcm_reg_id', () => {
  it('registers an FCM token (any text), idempotently, and removes it once', async () => {
    const hamlet = world.as('hamlet');
    const token = 'fcm:APA91bH-registration_token.with.dots';
    expectSuccess(await hamlet.post('/users/me/android_gcm_reg_id', { token }), 'POST', '/users/me/android_gcm_reg_id');
    expectSuccess(await hamlet.post('/users/me/android_gcm_reg_id', { token }), 'POST', '/users/me/android_gcm_reg_id');
    expectSuccess(
      await hamlet.delete('/users/me/android_gcm_reg_id', { token }),
      'DELETE',
      '/users/me/android_gcm_reg_id',
    );
    expectError(
      await hamlet.delete('/users/me/android_gcm_reg_id', { token }),
      400,
      'INVALID_PUSH_DEVICE_TOKEN',
      'Device not recognized',
    );
  });

  it("answers Zulip's errors for empty and overlong tokens, and refuses bots", async () => {
    const hamlet = world.as('hamlet');
    expectError(
      await hamlet.post('/users/me/android_gcm_reg_id', { token: '' }),
      400,
      'BAD_REQUEST',
      'Empty or invalid length token',
    );
    expectError(
      await hamlet.post('/users/me/android_gcm_reg_id', { token: 'x'.repeat(4097) }),
      400,
      'BAD_REQUEST',
      'Empty or invalid length token',
    );
    expectError(
      await hamlet.post('/users/me/android_gcm_reg_id'),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'token' argument",
    );
    expectError(
      await world.as('default-bot').post('/users/me/android_gcm_reg_id', { token: 'abc' }),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
  });
});

describe('POST /mobile_push/register', () => {
  it('answers PUSH_SERVICE_NOT_CONFIGURED where no relay is configured', async () => {
    const keys = sodium.crypto_box_keypair();
    const response = await world.as('cordelia').post('/mobile_push/register', registration(11, keys.publicKey));
    expectError(
      response,
      400,
      'PUSH_SERVICE_NOT_CONFIGURED',
      'Server is not configured to use push notification service.',
    );
  });

  it('registers the device at the relay (pending, then active), and a second registration changes nothing', async () => {
    const cordelia = viaRelay('cordelia');
    const keys = sodium.crypto_box_keypair();
    expectSuccess(
      await cordelia.post('/mobile_push/register', registration(2408, keys.publicKey, 'apns')),
      'POST',
      '/mobile_push/register',
    );
    const device = await waitForDevice(cordelia, 2408, 'active');
    expect(device).toEqual({
      device_id: expect.any(Number),
      push_account_id: 2408,
      token_kind: 'apns',
      status: 'active',
      error_code: null,
      date_registered: expect.any(Number),
    });
    expect(stub.registrations).toHaveLength(1);
    expect(stub.registrations[0]!.body).toEqual({
      realm_id: world.realm.realm_id,
      push_account_id: 2408,
      token_kind: 'apns',
      bouncer_public_key: 'relay-key-2025',
      encrypted_push_registration: 'sealed-token-for-2408',
    });
    expect(stub.registrations[0]!.authorization).toBe(
      `Basic ${Buffer.from(`${SERVER_ID}:${SERVER_KEY}`).toString('base64')}`,
    );

    expectSuccess(
      await cordelia.post('/mobile_push/register', registration(2408, keys.publicKey, 'apns')),
      'POST',
      '/mobile_push/register',
    );
    // The repeat queued nothing: a registration queued after it (another user's) reaches the relay alone.
    const othello = viaRelay('othello');
    await othello.post('/mobile_push/register', registration(2409, sodium.crypto_box_keypair().publicKey, 'apns'));
    await waitForDevice(othello, 2409, 'active');
    expect(stub.registrations.map((r) => (r.body as { push_account_id: number }).push_account_id)).toEqual([
      2408, 2409,
    ]);
    expect(await devicesOf(cordelia)).toEqual([device]);
    // Devices are per user.
    expect((await devicesOf(othello)).map((d) => d.push_account_id)).toEqual([2409]);
  });

  it("marks the device failed with the relay's code when the relay rejects it, and a new registration starts over", async () => {
    const prospero = viaRelay('prospero');
    const keys = sodium.crypto_box_keypair();
    stub.mode = 'reject-registration';
    expectSuccess(
      await prospero.post('/mobile_push/register', registration(77, keys.publicKey)),
      'POST',
      '/mobile_push/register',
    );
    const failed = await waitForDevice(prospero, 77, 'failed');
    expect(failed.error_code).toBe('INVALID_BOUNCER_PUBLIC_KEY');
    stub.mode = 'accept';
    expectSuccess(
      await prospero.post('/mobile_push/register', registration(77, keys.publicKey)),
      'POST',
      '/mobile_push/register',
    );
    const active = await waitForDevice(prospero, 77, 'active');
    expect(active).toMatchObject({ device_id: failed.device_id, error_code: null });
  });

  it('lists the devices for the events service on its internal endpoint', async () => {
    const { device } = await activeDevice('shiva', 5150);
    const response = await fetch(
      `${system().serviceUrls.push}/internal/push_devices?user_id=${world.user('shiva').id}`,
      {
        headers: { 'x-confab-identity': serviceToken(system()) },
      },
    );
    expect(await response.json()).toEqual({
      result: 'success',
      msg: '',
      push_devices: { '5150': { status: 'active', error_code: null } },
    });
    expect(device.push_account_id).toBe(5150);
  });

  it('validates its parameters and refuses bots', async () => {
    const aaron = viaRelay('aaron');
    const keys = sodium.crypto_box_keypair();
    expectError(
      await aaron.post('/mobile_push/register', { ...registration(1, keys.publicKey), token_kind: 'gcm' }),
      400,
      'BAD_REQUEST',
      'Invalid token_kind',
    );
    expectError(
      await aaron.post('/mobile_push/register', { ...registration(1, keys.publicKey), push_public_key: 'c2hvcnQ=' }),
      400,
      'BAD_REQUEST',
      'Invalid push_public_key',
    );
    expectError(
      await aaron.post('/mobile_push/register', { ...registration(1, keys.publicKey), push_account_id: -1 }),
      400,
      'BAD_REQUEST',
      'push_account_id is too small',
    );
    expectError(
      await aaron.post('/mobile_push/register', { ...registration(1, keys.publicKey), push_account_id: '"7"' }),
      400,
      'BAD_REQUEST',
      'push_account_id is not an integer',
    );
    const { push_public_key: _omitted, ...withoutKey } = registration(1, keys.publicKey);
    expectError(
      await aaron.post('/mobile_push/register', withoutKey),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'push_public_key' argument",
    );
    const bot = world.user('default-bot');
    const botClient = new ApiClient(relayGatewayUrl, {
      host: world.host,
      forwardedFor: world.clientAddress,
    }).withCredentials(bot.email, bot.apiKey);
    expectError(
      await botClient.post('/mobile_push/register', registration(1, keys.publicKey)),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
    expect(await devicesOf(aaron)).toEqual([]);
  });
});

describe('POST /mobile_push/e2ee/test_notification', () => {
  let iago: Awaited<ReturnType<typeof activeDevice>>;
  beforeAll(async () => {
    iago = await activeDevice('iago', 9001);
  });

  it('seals a test payload to each device; the relay gets ciphertext that only the device key opens', async () => {
    const first = await activeDevice('desdemona', 1);
    const second = await activeDevice('desdemona', 2);
    stub.clear();
    const response = await viaRelay('desdemona').post('/mobile_push/e2ee/test_notification');
    expectSuccess(response, 'POST', '/mobile_push/e2ee/test_notification');
    expect(stub.deliveries).toHaveLength(2);
    for (const { keys, device } of [first, second]) {
      const delivery = stub.deliveries.find((d) => d.body.push_account_id === device.push_account_id)!;
      expect(delivery.body).toEqual({
        device_id: expect.stringMatching(/^relay-/),
        push_account_id: device.push_account_id,
        encrypted_data: expect.any(String),
        priority: 'high',
      });
      const sealed = Buffer.from(delivery.body.encrypted_data as string, 'base64');
      expect(sealed.toString('utf8')).not.toContain('test');
      const opened = sodium.crypto_box_seal_open(sealed, keys.publicKey, keys.privateKey);
      expect(JSON.parse(Buffer.from(opened).toString('utf8'))).toEqual({
        type: 'test',
        user_id: world.user('desdemona').id,
        realm_id: world.realm.realm_id,
        push_account_id: device.push_account_id,
        time: expect.any(Number),
      });
      const other = sodium.crypto_box_keypair();
      expect(() => sodium.crypto_box_seal_open(sealed, other.publicKey, other.privateKey)).toThrow();
    }

    // device_id names a client device (feature level 468), never a push device of level 406.
    expectError(
      await viaRelay('desdemona').post('/mobile_push/e2ee/test_notification', { device_id: second.device.device_id }),
      400,
      ...NO_DEVICE,
    );

    stub.clear();
    // Feature level 420's parameter.
    expectSuccess(
      await viaRelay('desdemona').post('/mobile_push/e2ee/test_notification', { push_account_id: 1 }),
      'POST',
      '/mobile_push/e2ee/test_notification',
    );
    expect(stub.deliveries.map((d) => d.body.push_account_id)).toEqual([1]);
  });

  it('reports job lateness from the worker and job queue depths from the service', async () => {
    await activeDevice('desdemona', 3);
    expectSuccess(
      await viaRelay('desdemona').post('/mobile_push/e2ee/test_notification', { push_account_id: 3 }),
      'POST',
      '/mobile_push/e2ee/test_notification',
    );
    const worker = await (await fetch(workerMetricsUrl)).text();
    expect(worker).toMatch(/job_lateness_seconds_count\{[^}]*queue="push-test"[^}]*\} [1-9]/);
    expect(worker).toMatch(/job_lateness_seconds_count\{[^}]*queue="push-register"[^}]*\} [1-9]/);
    const service = await (await fetch(pushMetricsUrl)).text();
    expect(service).toMatch(/job_queue_depth\{[^}]*queue="push-test",state="waiting"[^}]*\} 0/);
    expect(service).toMatch(/job_queue_depth\{[^}]*queue="push-register",state="failed"[^}]*\} \d+/);
  });

  it("answers NO_ACTIVE_PUSH_DEVICE without devices, for a device that is not the caller's, and for impossible ids", async () => {
    expectError(await world.as('hamlet').post('/mobile_push/e2ee/test_notification'), 400, ...NO_DEVICE);
    expectError(await viaRelay('hamlet').post('/mobile_push/e2ee/test_notification'), 400, ...NO_DEVICE);
    expectError(
      await viaRelay('hamlet').post('/mobile_push/e2ee/test_notification', { device_id: iago.device.device_id }),
      400,
      ...NO_DEVICE,
    );
    expectError(
      await viaRelay('iago').post('/mobile_push/e2ee/test_notification', { device_id: 99999999999 }),
      400,
      ...NO_DEVICE,
    );
    expectError(
      await viaRelay('iago').post('/mobile_push/e2ee/test_notification', { push_account_id: 1234 }),
      400,
      ...NO_DEVICE,
    );
    expectError(
      await viaRelay('iago').post('/mobile_push/e2ee/test_notification', { device_id: 'x' }),
      400,
      'BAD_REQUEST',
      'device_id is not valid JSON',
    );
    expect(stub.requests).toEqual([]);
  });

  it('answers ADMIN_ACTION_REQUIRED (403) when the relay refuses our credentials, without retrying', async () => {
    stub.mode = 'refuse';
    expectError(await viaRelay('iago').post('/mobile_push/e2ee/test_notification'), 403, ...ADMIN);
    expect(notifications()).toHaveLength(1);
  });

  it('answers ADMIN_ACTION_REQUIRED (403) where no relay is configured', async () => {
    expectError(await world.as('iago').post('/mobile_push/e2ee/test_notification'), 403, ...ADMIN);
    expect(stub.requests).toEqual([]);
  });

  it('answers INTERNAL_SERVER_ERROR_ON_BOUNCER (502) when the relay fails with 5xx, after retrying', async () => {
    stub.mode = 'fail';
    expectError(await viaRelay('iago').post('/mobile_push/e2ee/test_notification'), 502, ...RELAY_5XX);
    expect(notifications()).toHaveLength(3);
    expect(new Set(notifications().map((r) => r.idempotencyKey)).size).toBe(1);
  });

  it('answers FAILED_TO_CONNECT_BOUNCER (502) when the relay hangs, within the time limits', async () => {
    stub.mode = 'hang';
    const started = Date.now();
    expectError(await viaRelay('iago').post('/mobile_push/e2ee/test_notification'), 502, ...NETWORK);
    const elapsed = Date.now() - started;
    // Three tries of 2 s each with 100 + 200 ms between them, inside the 10 s the request waits.
    expect(elapsed).toBeGreaterThanOrEqual(6000);
    expect(elapsed).toBeLessThan(9500);
    expect(notifications()).toHaveLength(3);
    expect(stub.deliveries).toHaveLength(0);
  });

  it('notifies once when the relay acted but its answer was lost, as the retry carries the same idempotency key', async () => {
    stub.mode = 'lose-first-answer';
    expectSuccess(
      await viaRelay('iago').post('/mobile_push/e2ee/test_notification'),
      'POST',
      '/mobile_push/e2ee/test_notification',
    );
    expect(stub.deliveries).toHaveLength(1);
    expect(notifications()).toHaveLength(2);
    expect(notifications()[1]!.idempotencyKey).toBe(notifications()[0]!.idempotencyKey);
    // A new request is a new notification.
    stub.clear();
    stub.mode = 'accept';
    expectSuccess(
      await viaRelay('iago').post('/mobile_push/e2ee/test_notification'),
      'POST',
      '/mobile_push/e2ee/test_notification',
    );
    expect(stub.deliveries).toHaveLength(1);
  });

  it('answers FAILED_TO_CONNECT_BOUNCER (502) when nothing listens on the relay port', async () => {
    await stub.stop();
    try {
      expectError(await viaRelay('iago').post('/mobile_push/e2ee/test_notification'), 502, ...NETWORK);
    } finally {
      await stub.start();
    }
    expect(stub.requests).toEqual([]);
    expectSuccess(
      await viaRelay('iago').post('/mobile_push/e2ee/test_notification'),
      'POST',
      '/mobile_push/e2ee/test_notification',
    );
  });
});

describe('GET /server_settings', () => {
  it('reports push_notifications_enabled as the relay configuration says', async () => {
    const configured = new ApiClient(relayGatewayUrl, { host: world.host, forwardedFor: world.clientAddress });
    const on = await configured.get('/server_settings');
    expectSuccess(on, 'GET', '/server_settings');
    expect(on.body.push_notifications_enabled).toBe(true);
    expect((await world.anonymous().get('/server_settings')).body.push_notifications_enabled).toBe(false);
  });
});

describe("client devices: the Flutter app's push registration (feature levels 468 and 470)", () => {
  const pushKeyOf = (key: Uint8Array) => b64(Buffer.concat([Buffer.from([0x31]), Buffer.from(key)]));
  const tokenIdOf = (token: string) => b64(createHash('sha256').update(token).digest().subarray(0, 8));

  it('registers the install, its key and token as the app does, with device events, and removes it at logout', async () => {
    const app = viaRelay('polonius');
    const queue = await EventQueue.register(world.as('polonius'), {
      event_types: ['device'],
      fetch_event_types: ['device'],
    });
    expect(queue.registration.devices).toEqual({});

    // The app's registerClientDevice, then registerPushDevice with both groups (notifications.dart).
    const created = await app.post('/register_client_device');
    expectSuccess(created, 'POST', '/register_client_device', { undocumented: true });
    const deviceId = created.body.device_id as number;
    expect(await queue.next((e) => e.type === 'device' && e.op === 'add')).toMatchObject({ device_id: deviceId });

    const key = sodium.crypto_secretbox_keygen();
    const tokenId = tokenIdOf('fcm-token-of-polonius');
    const registered = await app.post('/mobile_push/register', {
      device_id: deviceId,
      push_key_id: 3141592653,
      push_key: pushKeyOf(key),
      token_kind: 'fcm',
      token_id: tokenId,
      bouncer_public_key: 'mm4F/3WLqECY637NulC5j/ZeHkmpwmtlfIxwt8MfREM=',
      encrypted_push_registration: 'c2VhbGVkLWJ5LXRoZS1hcHA=',
    });
    expectSuccess(registered, 'POST', '/mobile_push/register');
    expect(await queue.next((e) => e.type === 'device' && e.op === 'update' && 'pending_push_token_id' in e)).toEqual({
      id: expect.any(Number),
      type: 'device',
      op: 'update',
      device_id: deviceId,
      push_key_id: 3141592653,
      pending_push_token_id: tokenId,
      push_token_last_updated_timestamp: expect.any(Number),
      push_registration_error_code: null,
    });
    // The relay registers the token (the worker's job); the app learns it by the next event.
    expect(await queue.next((e) => e.type === 'device' && 'push_token_id' in e)).toMatchObject({
      device_id: deviceId,
      push_token_id: tokenId,
      pending_push_token_id: null,
    });
    expect(stub.registrations.at(-1)!.body).toEqual({
      realm_id: world.realm.realm_id,
      token_id: tokenId,
      token_kind: 'fcm',
      bouncer_public_key: 'mm4F/3WLqECY637NulC5j/ZeHkmpwmtlfIxwt8MfREM=',
      encrypted_push_registration: 'c2VhbGVkLWJ5LXRoZS1hcHA=',
    });

    // A new /register shows the device as the app's ClientDevice model reads it.
    const again = await EventQueue.register(world.as('polonius'), { fetch_event_types: ['device'] });
    expect(again.registration.devices).toEqual({
      [String(deviceId)]: {
        push_key_id: 3141592653,
        push_token_id: tokenId,
        pending_push_token_id: null,
        push_token_last_updated_timestamp: expect.any(Number),
        push_registration_error_code: null,
      },
    });

    // The test notification reaches the device encrypted with its push key, the key's id in clear.
    stub.clear();
    expectSuccess(
      await app.post('/mobile_push/e2ee/test_notification', { device_id: deviceId }),
      'POST',
      '/mobile_push/e2ee/test_notification',
    );
    expect(stub.deliveries).toHaveLength(1);
    const delivery = stub.deliveries[0]!.body;
    expect(delivery).toMatchObject({ device_id: expect.stringMatching(/^relay-/), push_key_id: 3141592653 });
    const packed = Buffer.from(delivery.encrypted_data as string, 'base64');
    const opened = sodium.crypto_secretbox_open_easy(packed.subarray(24), packed.subarray(0, 24), key);
    expect(JSON.parse(Buffer.from(opened).toString('utf8'))).toEqual({
      type: 'test',
      user_id: world.user('polonius').id,
      realm_id: world.realm.realm_id,
      time: expect.any(Number),
    });

    // Rotating the key alone: one event naming the new key id.
    expectSuccess(
      await app.post('/mobile_push/register', { device_id: deviceId, push_key_id: 7, push_key: pushKeyOf(key) }),
      'POST',
      '/mobile_push/register',
    );
    expect(await queue.next((e) => e.type === 'device' && e.push_key_id === 7)).toEqual({
      id: expect.any(Number),
      type: 'device',
      op: 'update',
      device_id: deviceId,
      push_key_id: 7,
    });

    // Logout: the app removes the device; others cannot.
    expectError(
      await viaRelay('hamlet').post('/remove_client_device', { device_id: deviceId }),
      400,
      'BAD_REQUEST',
      'Invalid `device_id`',
    );
    expectSuccess(await app.post('/remove_client_device', { device_id: deviceId }), 'POST', '/remove_client_device', {
      undocumented: true,
    });
    expect(await queue.next((e) => e.type === 'device' && e.op === 'remove')).toMatchObject({ device_id: deviceId });
    expectError(await app.post('/mobile_push/e2ee/test_notification', { device_id: deviceId }), 400, ...NO_DEVICE);
  });

  it("answers Zulip's errors for incomplete, malformed or foreign registrations", async () => {
    const app = viaRelay('prospero');
    const deviceId = (await app.post('/register_client_device')).body.device_id as number;
    const key = pushKeyOf(sodium.crypto_secretbox_keygen());
    const token = {
      token_kind: 'fcm',
      token_id: 'AAAAAAAAAAE=',
      bouncer_public_key: 'bk',
      encrypted_push_registration: 'e',
    };
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { device_id: deviceId },
        'BAD_REQUEST',
        'Missing parameters: must provide either all push key fields, all token fields, or both.',
      ],
      [
        { device_id: deviceId, push_key: key },
        'BAD_REQUEST',
        'Missing parameters: must provide either all push key fields, all token fields, or both.',
      ],
      [
        { device_id: deviceId, push_key_id: 1, push_key: key },
        'BAD_REQUEST',
        'No push registration exists to rotate key for.',
      ],
      [{ device_id: deviceId, ...token }, 'BAD_REQUEST', 'No push registration exists to rotate token for.'],
      [{ device_id: deviceId, push_key_id: 1, push_key: 'AAAA', ...token }, 'BAD_REQUEST', 'Invalid `push_key`'],
      [
        { device_id: deviceId, push_key_id: 1, push_key: key, ...token, token_id: 'not base64' },
        'BAD_REQUEST',
        '`token_id` is not Base64 encoded',
      ],
      [{ device_id: deviceId, push_key_id: 2 ** 32, push_key: key }, 'BAD_REQUEST', 'push_key_id is too large'],
      [
        { device_id: deviceId, push_key_id: 1, push_key: key, ...token, token_kind: 'gcm' },
        'BAD_REQUEST',
        'Invalid token_kind',
      ],
      [{ device_id: 2147483647, push_key_id: 1, push_key: key, ...token }, 'BAD_REQUEST', 'Invalid `device_id`'],
      [{ device_id: 'x' }, 'BAD_REQUEST', 'device_id is not valid JSON'],
      [{ token_kind: 'fcm' }, 'REQUEST_VARIABLE_MISSING', "Missing 'push_account_id' argument"],
    ];
    for (const [params, code, msg] of cases)
      expectError(await app.post('/mobile_push/register', params), 400, code, msg);
    expectError(
      await app.post('/remove_client_device'),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'device_id' argument",
    );
    // Without a relay configured, registering a device works and its push registration does not.
    const unconfigured = world.as('prospero');
    const local = (await unconfigured.post('/register_client_device')).body.device_id as number;
    expectError(
      await unconfigured.post('/mobile_push/register', { device_id: local, push_key_id: 1, push_key: key, ...token }),
      400,
      'PUSH_SERVICE_NOT_CONFIGURED',
      'Server is not configured to use push notification service.',
    );
    expect(stub.registrations).toEqual([]);
  });
});

describe('POST /mobile_push/test_notification (legacy tokens)', () => {
  const token = 'feedface'.repeat(8);

  it("answers as Zulip: success for the caller's tokens or all of them, a stranger's token is not recognized", async () => {
    const cordelia = world.as('cordelia');
    expectSuccess(await cordelia.post('/mobile_push/test_notification'), 'POST', '/mobile_push/test_notification');
    expectError(
      await cordelia.post('/mobile_push/test_notification', { token }),
      400,
      'INVALID_PUSH_DEVICE_TOKEN',
      'Device not recognized',
    );
    await cordelia.post('/users/me/android_gcm_reg_id', { token });
    expectSuccess(
      await cordelia.post('/mobile_push/test_notification', { token }),
      'POST',
      '/mobile_push/test_notification',
    );
    // Another user's token is not the caller's device.
    expectError(
      await world.as('othello').post('/mobile_push/test_notification', { token }),
      400,
      'INVALID_PUSH_DEVICE_TOKEN',
      'Device not recognized',
    );
    expectError(
      await world.as('default-bot').post('/mobile_push/test_notification'),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
  });
});
