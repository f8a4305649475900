import type { World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

// Measured: about 10 s on the 2-core machine (one organization for the file).
jest.setTimeout(60_000);

let world: World;
beforeAll(async () => {
  world = await newWorld();
});

const issues = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://github.com/zulip/zulip/issues/{id}' };

async function linkifiers(): Promise<{ id: number; pattern: string; url_template: string }[]> {
  const response = await world.as('polonius').get('/realm/linkifiers');
  expectSuccess(response, 'GET', '/realm/linkifiers');
  return response.body.linkifiers;
}

describe('linkifiers (/realm/filters, /realm/linkifiers)', () => {
  it('an administrator adds one; clients hear of it; new messages and topics are linkified', async () => {
    const modern = await EventQueue.register(world.as('hamlet'), {
      event_types: ['realm_linkifiers', 'realm_filters', 'message'],
      apply_markdown: true,
      client_capabilities: { linkifier_url_template: true },
    });
    const legacy = await EventQueue.register(world.as('othello'), {
      event_types: ['realm_linkifiers', 'realm_filters'],
    });
    const created = await world.as('iago').post('/realm/filters', issues);
    expectSuccess(created, 'POST', '/realm/filters');
    const id = created.body.id as number;
    expect(await linkifiers()).toEqual([{ id, ...issues }]);
    expect(await modern.next((e) => e.type === 'realm_linkifiers')).toMatchObject({
      realm_linkifiers: [{ id, ...issues }],
    });
    await modern.next((e) => e.type === 'realm_filters');
    expect(await legacy.next((e) => e.type === 'realm_filters')).toMatchObject({ realm_filters: [] });
    expect(legacy.seen.filter((e) => e.type === 'realm_linkifiers')).toEqual([]);

    const sent = await world.as('hamlet').post('/messages', {
      type: 'stream',
      to: 'Verona',
      topic: 'fix #77',
      content: 'See #123.',
    });
    const message = await modern.next((e) => e.type === 'message' && e.message.id === sent.body.id);
    expect(message.message.content).toBe('<p>See <a href="https://github.com/zulip/zulip/issues/123">#123</a>.</p>');
    expect(message.message.topic_links).toEqual([{ text: '#77', url: 'https://github.com/zulip/zulip/issues/77' }]);
    const fetched = await world.as('othello').get(`/messages/${sent.body.id}`);
    expect(fetched.body.message.topic_links).toEqual([
      { text: '#77', url: 'https://github.com/zulip/zulip/issues/77' },
    ]);

    const withCapability = await world.as('cordelia').post('/register', {
      fetch_event_types: ['realm_linkifiers', 'realm_filters'],
      client_capabilities: { linkifier_url_template: true },
    });
    expect(withCapability.body.realm_linkifiers).toEqual([{ id, ...issues }]);
    expect(withCapability.body.realm_filters).toEqual([]);
    const without = await world.as('cordelia').post('/register', { fetch_event_types: ['realm_linkifiers'] });
    expect(without.body.realm_linkifiers).toEqual([]);
  });

  it('edits, reorders and removes linkifiers', async () => {
    const [first] = await linkifiers();
    const second = (
      await world
        .as('iago')
        .post('/realm/filters', { pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://z.test/{id}' })
    ).body.id as number;
    expectSuccess(
      await world.as('iago').patch(`/realm/filters/${first!.id}`, {
        pattern: '#(?P<id>[0-9]+)',
        url_template: 'https://github.com/zulip/zulip/pull/{id}',
      }),
      'PATCH',
      '/realm/filters/{filter_id}',
    );
    expectSuccess(
      await world.as('iago').patch('/realm/linkifiers', { ordered_linkifier_ids: [second, first!.id] }),
      'PATCH',
      '/realm/linkifiers',
    );
    expect((await linkifiers()).map((l) => [l.id, l.url_template])).toEqual([
      [second, 'https://z.test/{id}'],
      [first!.id, 'https://github.com/zulip/zulip/pull/{id}'],
    ]);
    expectSuccess(await world.as('iago').delete(`/realm/filters/${second}`), 'DELETE', '/realm/filters/{filter_id}');
    expect((await linkifiers()).map((l) => l.id)).toEqual([first!.id]);
  });

  it("refuses members and what Zulip's validation refuses", async () => {
    const [existing] = await linkifiers();
    expectError(
      await world.as('hamlet').post('/realm/filters', issues),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectError(
      await world.as('hamlet').delete(`/realm/filters/${existing!.id}`),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    const refuse = async (params: Record<string, string>, msg: string) => {
      const response = await world.as('iago').post('/realm/filters', params);
      expectError(response, 400, 'BAD_REQUEST', msg);
      expect(response.body.errors).toBeDefined();
    };
    await refuse({ pattern: '', url_template: 'https://x.test/{id}' }, 'This field cannot be blank.');
    await refuse(
      { pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://realm.com/my_realm_filter/' },
      "Group 'id' in linkifier pattern is not present in URL template.",
    );
    await refuse(
      { pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://x.test/{hello}' },
      "Group 'hello' in URL template is not present in linkifier pattern.",
    );
    await refuse({ pattern: '#(?P<id>[123])', url_template: '{id' }, 'Invalid URL template.');
    await refuse(issues, 'Realm filter with this Realm and Pattern already exists.');
    const bad = await world.as('iago').post('/realm/filters', { pattern: '(foo', url_template: 'https://x.test/' });
    expect(bad.body.msg).toMatch(/^Bad regular expression: /);
    expectError(await world.as('iago').delete('/realm/filters/99999999'), 400, 'BAD_REQUEST', 'Linkifier not found.');
    expectError(
      await world.as('iago').patch('/realm/linkifiers', { ordered_linkifier_ids: [] }),
      400,
      'BAD_REQUEST',
      'The ordered list must enumerate all existing linkifiers exactly once',
    );
    expectError(
      await world.as('iago').patch('/realm/linkifiers', { ordered_linkifier_ids: [existing!.id, existing!.id] }),
      400,
      'BAD_REQUEST',
      'The ordered list must not contain duplicated linkifiers',
    );
  });
});

describe('code playgrounds (/realm/playgrounds)', () => {
  it('an administrator adds and removes playgrounds; everyone hears of them and /register lists them', async () => {
    const queue = await EventQueue.register(world.as('polonius'), { event_types: ['realm_playgrounds'] });
    const created = await world.as('iago').post('/realm/playgrounds', {
      name: 'Python playground',
      pygments_language: 'python',
      url_template: 'https://python.example.com?code={code}',
    });
    expectSuccess(created, 'POST', '/realm/playgrounds');
    const playground = {
      id: created.body.id,
      name: 'Python playground',
      pygments_language: 'python',
      url_template: 'https://python.example.com?code={code}',
    };
    expect(await queue.next((e) => e.type === 'realm_playgrounds')).toMatchObject({ realm_playgrounds: [playground] });
    const state = await world.as('hamlet').post('/register', { fetch_event_types: ['realm_playgrounds'] });
    expect(state.body.realm_playgrounds).toEqual([playground]);
    expectSuccess(
      await world.as('iago').delete(`/realm/playgrounds/${playground.id}`),
      'DELETE',
      '/realm/playgrounds/{playground_id}',
    );
    expect(await queue.next((e) => e.type === 'realm_playgrounds' && e.realm_playgrounds.length === 0)).toBeTruthy();
  });

  it('refuses members, bad languages and templates, and unknown playgrounds', async () => {
    const ok = { name: 'Rust', pygments_language: 'rust', url_template: 'https://play.rust.test/?code={code}' };
    expectError(
      await world.as('hamlet').post('/realm/playgrounds', ok),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    const refuse = async (change: Record<string, string>, msg: string) =>
      expectError(await world.as('iago').post('/realm/playgrounds', { ...ok, ...change }), 400, 'BAD_REQUEST', msg);
    await refuse({ pygments_language: 'Rust!' }, 'Invalid characters in pygments language');
    await refuse(
      { url_template: 'https://play.rust.test/' },
      'Missing the required variable "code" in the URL template',
    );
    await refuse(
      { url_template: 'https://play.rust.test/{code}/{x}' },
      '"code" should be the only variable present in the URL template',
    );
    await refuse({ url_template: 'https://play.rust.test/{code' }, 'Invalid URL template.');
    expectError(await world.as('iago').delete('/realm/playgrounds/99999999'), 400, 'BAD_REQUEST', 'Invalid playground');
  });
});
