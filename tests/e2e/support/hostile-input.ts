import fc from 'fast-check';
import { ApiClient, type World } from '@confab/devkit';
import { allRoutes, concretePath, type ListedRoute } from './routes';
import { newWorld, startExtraProcess } from './system';

/**
 * Random and malformed parameters on every endpoint every service lists: never a 5xx, always an envelope, and a
 * refused request changes nothing a user can read back. The routes are dealt into shards, one test file each
 * (hostile-input.N.e2e.spec.ts), so that the e2e workers share the work; each shard has its own organization.
 */
export const HOSTILE_INPUT_SHARDS = 4;

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'null',
    'true',
    '[]',
    '{}',
    '[1,"a"]',
    '[[[[[]]]]]',
    '{"new":1,"old":{"direct_members":"x"}}',
    '99999999999999999999999',
    '2147483648',
    '-1',
    '0',
    '1e309',
    'NaN',
    '1.5',
    '<script>alert(1)</script>',
    'javascript:alert(1)',
    "'; DROP TABLE users; --",
    '\ud800',
    '%00',
    '../../etc/passwd',
    '@**all**',
    'x'.repeat(70_000),
  ),
  fc.integer().map(String),
  fc.double().map(String),
  fc.json({ maxDepth: 3 }),
  fc.array(fc.integer(), { maxLength: 5 }).map((a) => JSON.stringify(a)),
);

const pathId = fc.oneof(fc.constantFrom(0, 1, 2, 3, 2147483647, 2147483648, 99999999999), fc.nat(200));

/** Routes that would end the session under test or wait on purpose. */
function fuzzable(route: ListedRoute): boolean {
  if (route.method === 'DELETE' && route.path === '/api/v1/users/me') return false;
  if (route.path === '/api/v1/events' && route.method === 'GET') return false;
  return true;
}

/** Every read at once (reads change nothing, so their order does not matter), listed in the routes' order. */
async function snapshot(client: ApiClient, reads: ListedRoute[]): Promise<string> {
  const parts = await Promise.all(
    reads.map(async (read) => {
      const response = await client.get(read.path.replace('/api/v1', ''));
      return `${read.path} ${response.status} ${response.text}`;
    }),
  );
  return parts.join('\n');
}

/** Accepted requests change other services' read models a moment later: wait until the state has settled. */
async function settledSnapshot(client: ApiClient, reads: ListedRoute[]): Promise<string> {
  let previous = await snapshot(client, reads);
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const current = await snapshot(client, reads);
    if (current === previous) return current;
    previous = current;
  }
  return previous;
}

/** The suite for the routes of one shard (1-based): every `of`-th route of all the services list. */
export function hostileInputSuite(shard: number, of = HOSTILE_INPUT_SHARDS): void {
  describe(`hostile input on every endpoint (shard ${shard} of ${of})`, () => {
    let routes: ListedRoute[];
    let world: World;
    let reads: ListedRoute[];
    let gateway: Awaited<ReturnType<typeof startExtraProcess>>;
    beforeAll(async () => {
      routes = (await allRoutes()).filter(fuzzable);
      // Reads are taken from every route; the hostile requests go to this shard's.
      const mine = routes.filter((_, i) => i % of === shard - 1);
      world = await newWorld();
      // Thousands of requests in a minute: a gateway of its own whose rate limit stays out of the way.
      gateway = await startExtraProcess('gateway', { CONFAB_RATE_LIMIT_PER_MINUTE: '100000000' });
      // Everything a user can read without parameters is the state that must not change on a refused request.
      // GET /realm/presence answers the server's clock (server_timestamp), which no request leaves unchanged; GET
      // /export/realm shows an accepted export's progress, which its background job changes whenever it gets to it.
      reads = routes.filter(
        (r) =>
          r.method === 'GET' &&
          !r.path.includes('{') &&
          r.params.every((p) => !p.required) &&
          r.auth !== 'public' &&
          r.path !== '/api/v1/realm/presence' &&
          r.path !== '/api/v1/export/realm',
      );
      routes = mine;
      // An organization and a gateway process, while the other shards start theirs.
    }, 240_000);

    afterAll(async () => {
      await gateway?.process.stop();
    });

    it('refuses a NUL in every text parameter and an integer beyond int64 in every integer parameter', async () => {
      const iago = world.user('iago');
      const client = new ApiClient(gateway.url, { host: world.host }).withCredentials(iago.email, iago.apiKey);
      // The other required parameters get plain values so that the hostile one is the one read; id 0 never exists.
      const plain: Partial<Record<ListedRoute['params'][number]['kind'], string>> = {
        string: 'x',
        int: '1',
        bool: 'false',
      };
      const hostile: Partial<Record<ListedRoute['params'][number]['kind'], string>> = {
        string: 'a\u0000b',
        int: '99999999999999999999999',
      };
      const requests = routes.flatMap((route) =>
        route.params
          .filter((param) => hostile[param.kind] !== undefined)
          .map((param) => {
            const params: Record<string, string> = {};
            for (const other of route.params) {
              const value = plain[other.kind];
              if (other.required && value !== undefined) params[other.name] = value;
            }
            params[param.name] = hostile[param.kind]!;
            return { route, param: param.name, params };
          }),
      );
      expect(requests.length).toBeGreaterThan(100 / of);
      const problems: string[] = [];
      // A few at a time: the services answer in parallel, and the order of refused requests does not matter.
      for (let i = 0; i < requests.length; i += 8) {
        await Promise.all(
          requests.slice(i, i + 8).map(async ({ route, param, params }) => {
            const path = concretePath(route.path, 0).replace('/api/v1', '');
            const response = await client.request(route.method, path, params, {
              encoding: route.method === 'GET' ? 'query' : 'form',
            });
            if (response.status >= 500 || typeof response.body.result !== 'string') {
              problems.push(
                `${route.method} ${route.path} ${param} → ${response.status} ${response.text.slice(0, 200)}`,
              );
            }
          }),
        );
      }
      expect(problems).toEqual([]);
    }, 300_000);

    it('never answers 5xx, always answers an envelope, and changes nothing when it refuses', async () => {
      const iago = world.user('iago');
      const client = new ApiClient(gateway.url, { host: world.host }).withCredentials(iago.email, iago.apiKey);
      const problems: string[] = [];
      // The settled state after the last refused request; unknown again after a request that was accepted.
      let known: string | undefined;
      for (const route of routes) {
        const paramNames = route.params.map((p) => p.name);
        const input = fc.record({
          values: fc.record(Object.fromEntries(paramNames.map((n) => [n, fc.option(nasty, { nil: undefined })]))),
          extra: fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), nasty, { maxKeys: 2 }),
          id: pathId,
          multipart: fc.boolean(),
        });
        await fc.assert(
          fc.asyncProperty(input, async ({ values, extra, id, multipart }) => {
            const params: Record<string, string> = { ...extra };
            for (const [k, v] of Object.entries(values)) if (v !== undefined) params[k] = v;
            const before = known ?? (await settledSnapshot(client, reads));
            const path = concretePath(route.path, id).replace('/api/v1', '');
            const response = await client.request(route.method, path, params, {
              encoding: route.method === 'GET' ? 'query' : multipart ? 'multipart' : 'form',
            });
            const envelope = typeof response.body.result === 'string';
            if (
              response.status >= 500 ||
              (!envelope &&
                response.status !== 404 &&
                !String(response.headers['content-type']).startsWith('text/html'))
            ) {
              problems.push(
                `${route.method} ${route.path} ${JSON.stringify(params).slice(0, 200)} → ${response.status} ${response.text.slice(0, 200)}`,
              );
              known = undefined;
              return;
            }
            if (response.status >= 400) {
              // Unchanged at once is the common case and needs no settling; a change that lands later still
              // differs from `known` at the next refused request's check, or at the shard's last check below.
              let after = await snapshot(client, reads);
              if (after !== before) after = await settledSnapshot(client, reads);
              if (after !== before)
                problems.push(
                  `${route.method} ${route.path} refused (${response.status}) but changed state (or a refused request just before it did)`,
                );
              known = after;
            } else {
              known = undefined;
            }
          }),
          { numRuns: 8, seed: 4242 },
        );
      }
      if (known !== undefined && (await settledSnapshot(client, reads)) !== known)
        problems.push('the last refused request of the shard changed state after its answer');
      expect(problems).toEqual([]);
    }, 900_000);
  });
}
