// Issue 30, findings 1, 5 and 7: how a deployment is secured (docs/security.md). The internal identity secret
// (refused when it is a default outside development, rotated with a previous one accepted, not the key of upload
// URLs) and the headers uploads are served with; where the services and their metrics listen:
// deployment_listeners.e2e.spec.ts.
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEV_INTERNAL_SECRET, ManagedProcess, processes, serviceToken, type World } from '@confab/devkit';
import { expectSuccess } from './support/expect';
import { newWorld, startExtraProcess, system } from './support/system';

const file = (name: string, data: Buffer, contentType: string) => ({
  field: 'file',
  filename: name,
  contentType,
  data,
});

/** Waits for a process to exit, up to a deadline; true when it did. */
async function exited(proc: ManagedProcess, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!proc.running) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

describe('uploads served inline (finding 7)', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  async function uploadAndDownload(name: string, data: Buffer, contentType: string) {
    const uploaded = await world
      .as('hamlet')
      .post('/api/v1/user_uploads', {}, { files: [file(name, data, contentType)] });
    expectSuccess(uploaded, 'POST', '/user_uploads');
    const url = uploaded.body.url as string;
    return { url, download: await world.as('hamlet').get(url) };
  }

  it('carry nosniff and a sandboxing Content-Security-Policy, text and images alike', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    for (const [name, data, type] of [
      ['page.txt', Buffer.from('<script>alert(document.cookie)</script>'), 'text/plain'],
      ['pixel.png', png, 'image/png'],
    ] as const) {
      const { download } = await uploadAndDownload(name, data, type);
      expect([name, download.status, download.headers['content-disposition']]).toEqual([
        name,
        200,
        expect.stringMatching(/^inline;/),
      ]);
      expect([name, download.headers['x-content-type-options']]).toEqual([name, 'nosniff']);
      const csp = String(download.headers['content-security-policy']);
      expect([name, csp]).toEqual([name, expect.stringMatching(/(^|; )default-src 'none'(;|$)/)]);
      expect([name, csp]).toEqual([name, expect.stringMatching(/(^|; )sandbox(;|$)/)]);
    }
  });

  it('keep PDFs from loading anything, and send the same headers on a temporary URL', async () => {
    const { url, download } = await uploadAndDownload('doc.pdf', Buffer.from('%PDF-1.4\n%%EOF\n'), 'application/pdf');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.headers['content-security-policy']).toMatch(/^default-src 'none'/);
    const temporary = await world.as('hamlet').get(`/api/v1${url}`);
    expectSuccess(temporary, 'GET', '/user_uploads/{realm_id_str}/{filename}');
    const anonymous = await world.anonymous().get(temporary.body.url as string);
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers['x-content-type-options']).toBe('nosniff');
    expect(anonymous.headers['content-security-policy']).toMatch(/^default-src 'none'/);
  });
});

describe('the internal identity secret (finding 1)', () => {
  it('is generated for the run: the development default of the source is refused by every service', async () => {
    expect(system().internalSecret).not.toBe(DEV_INTERNAL_SECRET);
    expect(system().internalSecret.length).toBeGreaterThanOrEqual(32);
    for (const [service, url] of Object.entries(system().serviceUrls)) {
      if (service === 'gateway') continue;
      const forged = serviceToken({ internalSecret: DEV_INTERNAL_SECRET });
      const response = await fetch(`${url}/internal/routes`, { headers: { 'x-confab-identity': forged } });
      expect({ service, status: response.status }).toEqual({ service, status: 401 });
    }
  });

  it('keeps a process outside development from starting with the default or a short secret, saying how to set one', async () => {
    const spec = processes().find((p) => p.name === 'gateway')!;
    const base = system().processes.gateway!.env;
    for (const [label, secret] of [
      ['default', DEV_INTERNAL_SECRET],
      ['short', 'c0ffee'.repeat(5)],
    ] as const) {
      const logFile = join(system().logDir, `gateway-refused-${label}-${Date.now()}.log`);
      const proc = new ManagedProcess(
        spec,
        { ...base, NODE_ENV: 'production', CONFAB_INTERNAL_SECRET: secret, CONFAB_PORT: '0', CONFAB_METRICS_PORT: '0' },
        logFile,
        false,
      );
      proc.start();
      try {
        expect([label, await exited(proc, 60_000)]).toEqual([label, true]);
      } finally {
        await proc.kill();
      }
      const log = readFileSync(logFile, 'utf8');
      expect([label, log]).toEqual([label, expect.stringMatching(/CONFAB_INTERNAL_SECRET/)]);
      expect([label, log]).toEqual([label, expect.stringMatching(/openssl rand -hex 32/)]);
      expect([label, log]).toEqual([label, expect.stringMatching(/exited: code=1/)]);
    }
  }, 240_000);

  it('can be rotated: a service accepts tokens of its current and its previous secret, and no others', async () => {
    const previous = system().internalSecret;
    const next = createHmac('sha256', previous).update('rotation test').digest('hex');
    // The events service: the quickest to start (no database).
    const events = await startExtraProcess('events', {
      CONFAB_INTERNAL_SECRET: next,
      CONFAB_INTERNAL_SECRET_PREVIOUS: previous,
    });
    try {
      const status = async (secret: string) =>
        (
          await fetch(`${events.url}/internal/routes`, {
            headers: { 'x-confab-identity': serviceToken({ internalSecret: secret }) },
          })
        ).status;
      expect(await status(next)).toBe(200);
      expect(await status(previous)).toBe(200);
      expect(await status(createHmac('sha256', next).update('other').digest('hex'))).toBe(401);
    } finally {
      await events.process.stop();
    }
  }, 240_000);

  it('does not sign temporary upload URLs, which have a key of their own', async () => {
    const world = await newWorld();
    const uploaded = await world
      .as('hamlet')
      .post('/api/v1/user_uploads', {}, { files: [file('key.txt', Buffer.from('k'), 'text/plain')] });
    const pathId = (uploaded.body.url as string).replace('/user_uploads/', '');
    const payload = Buffer.from(JSON.stringify([pathId, Math.floor(Date.now() / 1000) + 60])).toString('base64url');
    const mac = createHmac('sha256', `confab-temporary-upload:${system().internalSecret}`)
      .update(payload)
      .digest('base64url');
    const forged = await world.anonymous().get(`/user_uploads/temporary/${payload}.${mac}/key.txt`);
    expect(forged.status).toBe(403);
    const real = await world.as('hamlet').get(`/api/v1/user_uploads/${pathId}`);
    expect((await world.anonymous().get(real.body.url as string)).status).toBe(200);
  });
});
