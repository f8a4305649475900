import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { IdentityVerifier } from '@confab/identity';
import { jsonText, textOfJson } from '@confab/zulip';
import { answerBytes, JSON_TEXT_HEADER, successAnswer } from '../src/responses';
import { ServiceClient } from '../src/service-client';

/** The internal client against a service stand-in on 127.0.0.1. */
const SECRET = 'internal-secret-for-this-test';
let server: Server;
let baseUrl: string;
let answer: (req: IncomingMessage, body: string, res: ServerResponse) => void;
const seen: { method: string; url: string; identity: unknown; body: string }[] = [];

beforeAll(async () => {
  const verifier = new IdentityVerifier(SECRET);
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        identity: verifier.verify(req.headers['x-confab-identity'] as string | undefined),
        body,
      });
      answer(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen.length = 0;
});

const json = (res: ServerResponse, status: number, body: unknown) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
const numbers = {
  parse(body: unknown): { ids: number[] } {
    const ids = (body as { ids?: unknown }).ids;
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'number')) throw new Error('not ids');
    return { ids };
  },
};

describe('ServiceClient: the one client of internal APIs', () => {
  it('signs the call as the calling service, sends JSON, encodes query values, and parses the answer', async () => {
    answer = (_req, _body, res) => json(res, 200, { ids: [1, 2] });
    const client = new ServiceClient({ caller: 'messaging', baseUrl, secret: SECRET });
    expect(
      await client.call('POST', '/things', numbers, { body: { a: 1 }, query: { q: 'text', list: [1, 2] } }),
    ).toEqual({ ids: [1, 2] });
    expect(seen).toEqual([
      {
        method: 'POST',
        url: '/internal/things?q=text&list=%5B1%2C2%5D',
        identity: expect.objectContaining({ kind: 'service', service: 'messaging' }),
        body: '{"a":1}',
      },
    ]);
  });

  it("passes on a 400's Zulip error with its fields, and makes every other failure a 503", async () => {
    const client = new ServiceClient({ caller: 'settings', baseUrl, secret: SECRET });
    answer = (_req, _body, res) =>
      json(res, 400, { result: 'error', msg: 'Invalid user group ID: 7', code: 'BAD_REQUEST', group_id: 7 });
    await expect(client.call('GET', '/groups', numbers)).rejects.toMatchObject({
      status: 400,
      code: 'BAD_REQUEST',
      message: 'Invalid user group ID: 7',
      data: { group_id: 7 },
    });
    for (const [status, body] of [
      [500, { msg: 'boom' }],
      [404, { msg: 'Not found' }],
      [200, { ids: 'not a list' }],
      [200, 'not an object'],
    ] as const) {
      answer = (_req, _body, res) => json(res, status, body);
      await expect(client.call('GET', '/groups', numbers)).rejects.toMatchObject({ status: 503 });
    }
    // request() gives the raw answer for callers that read statuses themselves.
    answer = (_req, _body, res) => json(res, 404, { msg: 'Not found' });
    expect(await client.request('GET', '/groups')).toEqual({ status: 404, body: { msg: 'Not found' } });
  });

  it('answers 503 when nothing listens, when the call takes too long, and when the service is not configured', async () => {
    const closed = new ServiceClient({ caller: 'groups', baseUrl: 'http://127.0.0.1:1', secret: SECRET });
    await expect(closed.call('GET', '/x', numbers)).rejects.toMatchObject({ status: 503 });
    answer = () => undefined; // never answers
    const slow = new ServiceClient({ caller: 'groups', baseUrl, secret: SECRET, timeoutMs: 100 });
    await expect(slow.request('GET', '/x')).rejects.toMatchObject({ status: 503 });
    const none = new ServiceClient({ caller: 'groups', baseUrl: '', secret: SECRET });
    expect(none.configured).toBe(false);
    await expect(none.call('GET', '/x', numbers)).rejects.toMatchObject({ status: 503 });
  });
});

describe('ServiceClient: fields an answer carries as JSON text', () => {
  it('keeps them as JSON text, and reads an answer whose layout does not fit as plain JSON', async () => {
    const client = new ServiceClient({ caller: 'events', baseUrl, secret: SECRET });
    const written = successAnswer({ realm_users: jsonText('[{"user_id":1}]'), n: 1 }, []);
    const { layout } = written;
    const text = answerBytes(written);
    answer = (_req, _body, res) =>
      res.writeHead(200, { 'content-type': 'application/json', [JSON_TEXT_HEADER]: layout! }).end(text);
    const kept = await client.request('GET', '/users/1/initial-state');
    expect(kept.body.n).toBe(1);
    expect(textOfJson(kept.body.realm_users)).toBe('[{"user_id":1}]');

    answer = (_req, _body, res) =>
      res.writeHead(200, { 'content-type': 'application/json', [JSON_TEXT_HEADER]: '999;x=1-2' }).end(text);
    const plain = await client.request('GET', '/users/1/initial-state');
    expect(plain.body).toEqual({ result: 'success', msg: '', n: 1, realm_users: [{ user_id: 1 }] });
  });
});
