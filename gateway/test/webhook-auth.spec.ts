import { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { ConfabError, unauthorized } from '@confab/errors';
import { resolveRoute } from '../src/routing';
import { keyRefusal, webhookBasicCredentials, webhookKeyCredentials } from '../src/webhook-auth';

const basic = (text: string) => `Basic ${Buffer.from(text).toString('base64')}`;

function refusalOf(run: () => unknown): { status: number; code: string; msg: string } {
  try {
    run();
  } catch (err) {
    if (err instanceof ConfabError) return { status: err.status, code: err.code, msg: err.message };
  }
  throw new Error('expected a refusal');
}

async function refusalOfAsync(run: () => Promise<unknown>): Promise<{ status: number; code: string; msg: string }> {
  try {
    await run();
  } catch (err) {
    if (err instanceof ConfabError) return { status: err.status, code: err.code, msg: err.message };
  }
  throw new Error('expected a refusal');
}

/** A request whose body is `body`, with these headers. */
function incoming(body: string, headers: Record<string, string>): IncomingMessage {
  return Object.assign(Readable.from([Buffer.from(body)]), { headers }) as unknown as IncomingMessage;
}

describe('webhook routes', () => {
  it('routes the integrations of the catalog to the integrations service, with their auth form', () => {
    expect(resolveRoute('/api/v1/external/github')).toEqual({
      service: 'integrations',
      public: false,
      webhook: { name: 'github', basic: false },
    });
    expect(resolveRoute('/api/v1/external/beanstalk/')).toMatchObject({ webhook: { name: 'beanstalk', basic: true } });
    expect(resolveRoute('/api/v1/external/no-such-thing')).toBeNull();
    expect(resolveRoute('/api/v1/external/github/extra')).toBeNull();
  });
});

describe('webhookBasicCredentials (Zulip get_basic_credentials)', () => {
  it("reads email:api_key, stripped, and decodes Beanstalk's %40", () => {
    expect(webhookBasicCredentials(basic(' bot@zulip.com : key '), false)).toEqual({
      email: 'bot@zulip.com',
      apiKey: 'key',
    });
    expect(webhookBasicCredentials(basic('bot%40zulip.com:key'), true)).toEqual({
      email: 'bot@zulip.com',
      apiKey: 'key',
    });
    expect(webhookBasicCredentials(basic('bot%40zulip.com:key'), false).email).toBe('bot%40zulip.com');
  });

  it("refuses with Zulip's webhook texts", () => {
    expect(refusalOf(() => webhookBasicCredentials(undefined, false))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
      msg: 'Missing authorization header for basic auth',
    });
    expect(refusalOf(() => webhookBasicCredentials('Bearer abc', false))).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'This endpoint requires HTTP basic authentication.',
    });
    for (const header of ['Basic', 'Basic a b', 'Basic !!!!', basic('no-colon'), basic('a:b:c')]) {
      expect(refusalOf(() => webhookBasicCredentials(header, false))).toEqual({
        status: 401,
        code: 'UNAUTHORIZED',
        msg: 'Invalid authorization header for basic auth',
      });
    }
  });
});

describe('webhookKeyCredentials (Zulip webhook_view api_key)', () => {
  it('takes the key from the query string without reading the body', async () => {
    const req = incoming('api_key=other', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(await webhookKeyCredentials(req, 'stream=x&api_key=%20abc%20', 1024)).toEqual({
      credentials: { email: null, apiKey: 'abc' },
      byParameter: true,
    });
  });

  it('reads a form body for it, and hands the body on', async () => {
    const body = 'payload=%7B%7D&api_key=abc';
    const found = await webhookKeyCredentials(
      incoming(body, { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }),
      'stream=x',
      1024,
    );
    expect(found).toEqual({ credentials: { email: null, apiKey: 'abc' }, byParameter: true, body: Buffer.from(body) });
  });

  it("answers Zulip's missing argument, and 413 beyond the cap", async () => {
    const missing = { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'api_key' argument" };
    expect(
      await refusalOfAsync(() =>
        webhookKeyCredentials(incoming('{}', { 'content-type': 'application/json' }), '', 1024),
      ),
    ).toEqual(missing);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    expect(await refusalOfAsync(() => webhookKeyCredentials(incoming('a=b', form), '', 1024))).toEqual(missing);
    expect(await refusalOfAsync(() => webhookKeyCredentials(incoming('a'.repeat(2048), form), '', 1024))).toMatchObject(
      {
        status: 413,
      },
    );
  });

  it('words the refusal of a key parameter with its own codes, without the Basic challenge', () => {
    const mapped = keyRefusal(unauthorized('Invalid API key')) as ConfabError;
    expect([mapped.status, mapped.code, mapped.message, mapped.headers]).toEqual([
      401,
      'INVALID_API_KEY',
      'Invalid API key',
      {},
    ]);
    expect((keyRefusal(unauthorized('Account is deactivated')) as ConfabError).code).toBe('USER_DEACTIVATED');
    expect((keyRefusal(unauthorized('This organization has been deactivated')) as ConfabError).code).toBe(
      'REALM_DEACTIVATED',
    );
    const other = new ConfabError('Service temporarily unavailable, retry later', { status: 503 });
    expect(keyRefusal(other)).toBe(other);
  });
});
