import { join } from 'node:path';
import { DEVELOPMENT_INTERNAL_SECRET } from '../../libs/config/src';
import { freePort } from '../../libs/devkit/src/infra';
import { ComposeProject } from './compose';

// The README's Docker path, as a newcomer runs it: `docker compose up` from this repository's docker-compose.yml
// (image confab:dev, built beforehand by scripts/test-containers.mjs), then the README's curl lines, then
// `docker compose down -v`. Run by `npm run test:containers` only: it needs a Docker engine and the images.
const REPO = join(__dirname, '..', '..');
const FIVE_MINUTES = 300_000;

let project: ComposeProject;
let base: string;

beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  project = new ComposeProject(`confab-smoke-${process.pid}`, REPO, {
    CONFAB_HOST_PORT: String(port),
    CONFAB_EXTERNAL_URL: base,
  });
  await project.compose(['up', '-d']);
  // The seed container creates the development organization once the gateway is healthy, then exits.
  await project
    .waitFor('seed', (s) => s.status === 'exited', FIVE_MINUTES)
    .catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await project.logs('seed')}\n${await project.logs('settings')}`);
    });
}, FIVE_MINUTES + 60_000);

afterAll(async () => {
  // Stops what the test started even when a test failed before the `down -v` test ran.
  if (project) await project.compose(['down', '-v', '--remove-orphans']).catch(() => undefined);
}, 120_000);

async function api(path: string, init: RequestInit & { auth?: string } = {}) {
  const headers: Record<string, string> = {};
  if (init.auth) headers.authorization = `Basic ${Buffer.from(init.auth).toString('base64')}`;
  const response = await fetch(`${base}/api/v1${path}`, { ...init, headers: { ...headers, ...(init.headers ?? {}) } });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  body: new URLSearchParams(fields),
});

describe('docker compose up (docker-compose.yml)', () => {
  let auth: string;

  it('seeds the development organization, with every service healthy', async () => {
    expect(await project.state('seed')).toEqual({ status: 'exited', exitCode: 0 });
    for (const service of ['settings', 'messaging', 'groups', 'invitations', 'push', 'events', 'gateway'])
      expect([service, (await project.state(service))?.health]).toEqual([service, 'healthy']);
  });

  it('starts with secrets generated for this project, not a default', async () => {
    expect(await project.state('secrets')).toEqual({ status: 'exited', exitCode: 0 });
    const secret = (await project.compose(['exec', '-T', 'settings', 'cat', '/data/secrets/internal_secret'])).trim();
    const uploadKey = (
      await project.compose(['exec', '-T', 'messaging', 'cat', '/data/secrets/upload_url_key'])
    ).trim();
    const meetingKey = (
      await project.compose(['exec', '-T', 'settings', 'cat', '/data/secrets/meeting_token_key'])
    ).trim();
    for (const value of [secret, uploadKey, meetingKey]) expect(value).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set([secret, uploadKey, meetingKey]).size).toBe(3);
  });

  it('has the services believe identity tokens signed with the generated secret, and not the default', async () => {
    // From inside the compose network (the service ports are not published): a service token for settings'
    // /internal/routes, signed once with the secret the `secrets` service generated and once with the source's default.
    const script = `
      const { signIdentity } = require('/app/libs/identity/dist/index.js');
      const generated = require('node:fs').readFileSync('/data/secrets/internal_secret', 'utf8').trim();
      (async () => {
        const status = {};
        for (const [label, secret] of [['generated', generated], ['default', ${JSON.stringify(DEVELOPMENT_INTERNAL_SECRET)}]]) {
          const token = signIdentity({ kind: 'service', service: 'smoke' }, secret);
          status[label] = (await fetch('http://settings:9101/internal/routes', { headers: { 'x-confab-identity': token } })).status;
        }
        console.log(JSON.stringify(status));
      })();`;
    const out = await project.compose(['exec', '-T', 'gateway', 'node', '-e', script]);
    expect(JSON.parse(out.trim())).toEqual({ generated: 200, default: 401 });
  });

  it('refuses to start a process with a short, default or placeholder secret, saying how to make one', async () => {
    for (const [service, name, value, reason] of [
      ['settings', 'CONFAB_INTERNAL_SECRET', 'c0ffee'.repeat(5), 'is too short (30 characters'],
      ['gateway', 'CONFAB_INTERNAL_SECRET', DEVELOPMENT_INTERNAL_SECRET, 'is a published default or placeholder'],
      ['messaging', 'CONFAB_UPLOAD_URL_KEY', 'replace-with-a-real-upload-url-key', 'is a published default'],
      ['settings', 'CONFAB_MEETING_TOKEN_KEY', 'confab-dev-meeting-token-key-change-me', 'is a published default'],
    ] as const) {
      const { exitCode, output } = await project.run(service, { [name]: value });
      expect([service, name, exitCode]).toEqual([service, name, 1]);
      expect(output).toContain(`${name} ${reason}`);
      expect(output).toContain('openssl rand -hex 32');
    }
  });

  it('answers the README curl lines: an API key for the password, then /users/me', async () => {
    const key = await api('/fetch_api_key', form({ username: 'iago@zulip.com', password: 'confab-dev' }));
    expect([key.status, key.body.result]).toEqual([200, 'success']);
    auth = `iago@zulip.com:${key.body.api_key}`;
    const me = await api('/users/me', { auth });
    expect([me.status, me.body.email, me.body.role]).toEqual([200, 'iago@zulip.com', 200]);
  });

  it('sends a message to a channel and reads it back', async () => {
    const content = `hello from compose ${Date.now()}`;
    const sent = await api('/messages', { ...form({ type: 'stream', to: 'Denmark', topic: 'smoke', content }), auth });
    expect([sent.status, sent.body.result]).toEqual([200, 'success']);
    const narrow = JSON.stringify([{ operator: 'id', operand: sent.body.id }]);
    const read = await api(`/messages?anchor=newest&num_before=1&num_after=0&narrow=${encodeURIComponent(narrow)}`, {
      auth,
    });
    expect(read.status).toBe(200);
    expect(read.body.messages.map((m: any) => [m.id, m.content, m.subject])).toEqual([
      [sent.body.id, `<p>${content}</p>`, 'smoke'],
    ]);
  });

  it('stores an upload in the data volume and serves it back', async () => {
    const body = new FormData();
    body.append('file', new Blob(['compose smoke file']), 'smoke.txt');
    const uploaded = await api('/user_uploads', { method: 'POST', body, auth });
    expect([uploaded.status, uploaded.body.result]).toEqual([200, 'success']);
    const file = await fetch(`${base}${uploaded.body.url}`, {
      headers: { authorization: `Basic ${Buffer.from(auth).toString('base64')}` },
    });
    expect([file.status, await file.text()]).toEqual([200, 'compose smoke file']);
  });

  it('docker compose down -v removes the containers and the data', async () => {
    expect((await project.volumes()).length).toBeGreaterThan(0);
    await project.compose(['down', '-v', '--remove-orphans']);
    expect(await project.volumes()).toEqual([]);
    expect(await project.state('gateway')).toBeNull();
  });
});
