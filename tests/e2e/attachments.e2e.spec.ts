import type { ApiClient, World } from '@confab/devkit';
import { serviceToken } from '@confab/devkit';
import { EventCapture } from './support/event-capture';
import { expectError, expectSuccess } from './support/expect';
import { newWorld, system } from './support/system';

const file = (name: string, text: string, contentType = 'text/plain') => ({
  field: 'file',
  filename: name,
  contentType,
  data: Buffer.from(text),
});

async function upload(
  client: ApiClient,
  name = 'notes.txt',
  text = 'hello file',
): Promise<{ url: string; uri: string; filename: string }> {
  const response = await client.post('/api/v1/user_uploads', {}, { files: [file(name, text)] });
  expectSuccess(response, 'POST', '/user_uploads');
  return response.body as { url: string; uri: string; filename: string };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('POST /user_uploads and GET /user_uploads/...', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('stores a file the uploader can download and list', async () => {
    const events = await EventCapture.start(['attachment.*'], world.realm.realm_id);
    const uploaded = await upload(world.as('hamlet'), 'My Notes.txt', 'the contents');
    expect(uploaded.url).toMatch(new RegExp(`^/user_uploads/${world.realm.realm_id}/[\\w-]+/My-Notes\\.txt$`));
    expect(uploaded.uri).toBe(uploaded.url);
    expect(uploaded.filename).toBe('My Notes.txt');
    const download = await world.as('hamlet').get(uploaded.url);
    expect(download.status).toBe(200);
    expect(download.text).toBe('the contents');
    expect(download.headers['content-type']).toMatch(/^text\/plain/);
    const listed = await world.as('hamlet').get('/attachments');
    expectSuccess(listed, 'GET', '/attachments');
    expect(listed.body.attachments).toEqual([
      {
        id: expect.any(Number),
        name: 'My Notes.txt',
        path_id: uploaded.url.replace('/user_uploads/', ''),
        size: 12,
        create_time: expect.any(Number),
        messages: [],
      },
    ]);
    expect(listed.body.upload_space_used).toBe(12);
    expect(await events.next('attachment.added')).toMatchObject({
      user_id: world.user('hamlet').id,
      attachment: { name: 'My Notes.txt' },
      upload_space_used: 12,
    });
    await events.stop();
  });

  it('lets readers of a message that links the file download it, and nobody else', async () => {
    const uploaded = await upload(world.as('hamlet'), 'shared.txt', 'shared');
    expect((await world.as('othello').get(uploaded.url)).status).toBe(403);
    const sent = await world
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'Verona', topic: 'files', content: `[shared.txt](${uploaded.url})` });
    expectSuccess(sent, 'POST', '/messages');
    const download = await world.as('othello').get(uploaded.url);
    expect(download.status).toBe(200);
    expect(download.text).toBe('shared');
    const listed = await world.as('hamlet').get('/attachments');
    const entry = (listed.body.attachments as { name: string; messages: { id: number }[] }[]).find(
      (a) => a.name === 'shared.txt',
    )!;
    expect(entry.messages.map((m) => m.id)).toEqual([sent.body.id]);
  });

  it('gives its readers a temporary URL that works without credentials', async () => {
    const uploaded = await upload(world.as('hamlet'), 'temp.txt', 'temporary contents');
    const rest = uploaded.url.replace('/user_uploads/', '');
    const response = await world.as('hamlet').get(`/api/v1/user_uploads/${rest}`);
    expectSuccess(response, 'GET', '/user_uploads/{realm_id_str}/{filename}');
    const url = response.body.url as string;
    expect(url).toMatch(/^\/user_uploads\/temporary\/[^/]+\/temp\.txt$/);
    const anonymous = await world.anonymous().get(url);
    expect(anonymous.status).toBe(200);
    expect(anonymous.text).toBe('temporary contents');
    const token = url.split('/')[3]!;
    const forged = url.replace(token, `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`);
    expect((await world.anonymous().get(forged)).status).toBe(403);
    // Nobody else has linked it yet: others get no URL for it.
    const refused = await world.as('othello').get(`/api/v1/user_uploads/${rest}`);
    expect({ status: refused.status, msg: refused.body.msg }).toEqual({
      status: 403,
      msg: 'You are not authorized to view this file.',
    });
    const missing = await world.as('hamlet').get(`/api/v1/user_uploads/${world.realm.realm_id}/xx/nothing.txt`);
    expect({ status: missing.status, msg: missing.body.msg }).toEqual({ status: 404, msg: 'File not found' });
  });

  it('refuses requests without a file or with several', async () => {
    expectError(
      await world.as('hamlet').post('/api/v1/user_uploads', {}, { files: [] }),
      400,
      'BAD_REQUEST',
      'You must specify a file to upload',
    );
    expectError(
      await world.as('hamlet').post('/api/v1/user_uploads', {}, { files: [file('a.txt', 'a'), file('b.txt', 'b')] }),
      400,
      'BAD_REQUEST',
      'You may only upload one file at a time',
    );
  });

  it('answers 404 for unknown files and 401 without credentials', async () => {
    expect((await world.as('hamlet').get(`/user_uploads/${world.realm.realm_id}/nothing/here.txt`)).status).toBe(404);
    expect((await world.anonymous().get(`/user_uploads/${world.realm.realm_id}/nothing/here.txt`)).status).toBe(401);
  });
});

describe('DELETE /attachments/{attachment_id}', () => {
  it('deletes the owner’s upload and refuses others', async () => {
    const world = await newWorld();
    const uploaded = await upload(world.as('hamlet'));
    const id = ((await world.as('hamlet').get('/attachments')).body.attachments as { id: number }[])[0]!.id;
    expectError(await world.as('othello').delete(`/attachments/${id}`), 400, 'BAD_REQUEST', 'Invalid attachment');
    expectSuccess(await world.as('hamlet').delete(`/attachments/${id}`), 'DELETE', `/attachments/${id}`);
    expect((await world.as('hamlet').get('/attachments')).body.attachments).toEqual([]);
    expect((await world.as('hamlet').get(uploaded.url)).status).toBe(404);
    expectError(await world.as('hamlet').delete(`/attachments/${id}`), 400, 'BAD_REQUEST', 'Invalid attachment');
    expectError(
      await world.anonymous().delete(`/attachments/${id}`),
      401,
      'UNAUTHORIZED',
      'Not logged in: API authentication or user session required',
    );
  });

  it('goes away with the last message that refers to it', async () => {
    const world = await newWorld();
    const uploaded = await upload(world.as('hamlet'), 'twice.txt');
    const first = await world
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'Rome', topic: 'f', content: `[a](${uploaded.url})` });
    const second = await world
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'Rome', topic: 'f', content: `again [a](${uploaded.url})` });
    await world.as('hamlet').delete(`/messages/${first.body.id}`);
    expect((await world.as('hamlet').get(uploaded.url)).status).toBe(200);
    await world.as('hamlet').delete(`/messages/${second.body.id}`);
    expect((await world.as('hamlet').get(uploaded.url)).status).toBe(404);
    expect((await world.as('hamlet').get('/attachments')).body.attachments).toEqual([]);
  });
});

describe('unclaimed uploads', () => {
  it('are deleted by the periodic job once older than the grace period', async () => {
    const world = await newWorld();
    const kept = await upload(world.as('othello'), 'recent.txt');
    const old = await upload(world.as('hamlet'), 'forgotten.txt');
    const claimed = await upload(world.as('hamlet'), 'claimed.txt');
    await world
      .as('hamlet')
      .post('/messages', { type: 'stream', to: 'Rome', topic: 'f', content: `[c](${claimed.url})` });
    // Three weeks and a day older than they are (a test-only endpoint of the messaging service).
    const info = system();
    const aged = await fetch(
      `${info.serviceUrls.messaging}/internal/dev/attachments/age?owner_id=${world.user('hamlet').id}&days=22`,
      {
        method: 'POST',
        headers: { 'x-confab-identity': serviceToken(info) },
      },
    );
    expect(aged.status).toBe(200);
    const deadline = Date.now() + 20_000;
    let names: string[] = [];
    while (Date.now() < deadline) {
      names = ((await world.as('hamlet').get('/attachments')).body.attachments as { name: string }[]).map(
        (a) => a.name,
      );
      if (!names.includes('forgotten.txt')) break;
      await sleep(250);
    }
    expect(names).toEqual(['claimed.txt']);
    expect((await world.as('hamlet').get(old.url)).status).toBe(404);
    expect((await world.as('othello').get(kept.url)).status).toBe(200);
  });
});
