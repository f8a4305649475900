import { DevRelay } from '../src/dev-relay';

describe('DevRelay (the development push relay of npm start)', () => {
  const lines: string[] = [];
  const relay = new DevRelay('dev-id', 'dev-key', (line) => lines.push(line));
  const auth = `Basic ${Buffer.from('dev-id:dev-key').toString('base64')}`;
  const post = (path: string, body: unknown, key: string, authorization = auth) =>
    fetch(relay.url + path, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify(body),
    });

  beforeAll(() => relay.start());
  afterAll(() => relay.stop());

  it('registers devices, takes each notification once per idempotency key, logs it and lists it', async () => {
    const registered = await post(
      '/api/v1/remotes/push/e2ee/register',
      {
        realm_id: 1,
        token_id: 'AAAAAAAAAAE=',
        token_kind: 'fcm',
        bouncer_public_key: 'k',
        encrypted_push_registration: 'e',
      },
      'register-1',
    );
    expect(registered.status).toBe(200);
    const { device_id } = (await registered.json()) as { device_id: string };
    const notification = {
      device_id,
      push_key_id: 7,
      encrypted_data: Buffer.alloc(40).toString('base64'),
      priority: 'high',
    };
    for (let i = 0; i < 2; i++) {
      const sent = await post('/api/v1/remotes/push/e2ee/notify', notification, 'message:1:2:c3');
      expect(sent.status).toBe(200);
      expect(await sent.json()).toEqual({ delivered: true });
    }
    const listing = (await (await fetch(`${relay.url}/notifications`)).json()) as {
      notifications: Record<string, unknown>[];
      registrations: Record<string, unknown>[];
    };
    expect(listing.registrations).toEqual([expect.objectContaining({ device_id, realm_id: 1, token_kind: 'fcm' })]);
    expect(listing.notifications).toEqual([
      expect.objectContaining({ device_id, push_key_id: 7, priority: 'high', encrypted_bytes: 40 }),
    ]);
    expect(lines.filter((l) => l.includes('notification for device'))).toHaveLength(1);
  });

  it('refuses wrong credentials and requests without an idempotency key', async () => {
    expect((await post('/api/v1/remotes/push/e2ee/notify', {}, 'k', 'Basic eDp5')).status).toBe(401);
    expect((await post('/api/v1/remotes/push/e2ee/notify', {}, '')).status).toBe(400);
  });
});
