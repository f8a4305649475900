import { randomBytes } from 'node:crypto';
import { ROLE_GUEST } from '@confab/identity';
import { ApiClient } from './client.js';
import { serviceToken, type StackInfo } from './stack.js';

export const DEV_PASSWORD = 'confab-dev';
export const DEV_JWT_KEY = 'confab-dev-jwt-key-change-me';

/** Short names of the development organization's accounts (the part before @zulip.com). */
export type DevUserName =
  | 'desdemona'
  | 'iago'
  | 'shiva'
  | 'hamlet'
  | 'othello'
  | 'cordelia'
  | 'prospero'
  | 'aaron'
  | 'polonius'
  | 'default-bot';

export interface WorldUser {
  id: number;
  email: string;
  fullName: string;
  role: number;
  isBot: boolean;
  apiKey: string;
}

export interface RealmInfo {
  realm_id: number;
  string_id: string;
  url: string;
  name: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function internal<T>(
  info: StackInfo,
  service: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const base = info.serviceUrls[service];
  if (!base) throw new Error(`service ${service} is not running`);
  // A connection of its own each time: fetch keeps an idle socket until just before the service's keep-alive
  // timeout (65 s), and a test process that spent those seconds loading its next file sends on a socket the service
  // is closing ("other side closed"). These calls are few; a fresh connection costs nothing here.
  const response = await fetch(`${base}/internal${path}`, {
    method,
    headers: { 'content-type': 'application/json', 'x-confab-identity': serviceToken(info), connection: 'close' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json().catch(() => ({}))) as T };
}

/**
 * Waits until every service that consumes events has handled the given events, so that what one service just
 * committed is visible in the others' read models. Services without the endpoint consume nothing and are skipped.
 * The deadline only bounds a failure: on a two-core machine shared with other work, the consumers of a new
 * organization's hundred-odd events were seen to need more than 20 s.
 */
export async function waitForEvents(info: StackInfo, eventIds: readonly string[], timeoutMs = 45_000): Promise<void> {
  const services = Object.keys(info.serviceUrls).filter((s) => s !== 'gateway' && s !== 'settings');
  const deadline = Date.now() + timeoutMs;
  for (const service of services) {
    for (const eventId of eventIds) {
      for (;;) {
        const { status, body } = await internal<{ processed?: boolean }>(
          info,
          service,
          'GET',
          `/events/processed/${eventId}`,
        );
        if (status === 404 && body.processed === undefined) break; // this service has no consumers
        if (body.processed) break;
        if (Date.now() > deadline) throw new Error(`${service} did not handle event ${eventId} within ${timeoutMs} ms`);
        await sleep(25);
      }
    }
  }
}

export const DEV_CHANNELS = ['Denmark', 'Scotland', 'Verona', 'Venice', 'Rome'] as const;

/**
 * An organization with the development accounts, fresh for each test file (or the development organization
 * itself, with subdomain ''), and API clients for each of its users.
 */
export class World {
  constructor(
    readonly info: StackInfo,
    readonly realm: RealmInfo,
    readonly users: Record<DevUserName, WorldUser>,
    /** Used as X-Forwarded-For, so each world has its own anonymous rate-limit budget. */
    readonly clientAddress: string,
  ) {}

  /** The Host header that selects this organization. */
  get host(): string {
    return new URL(this.realm.url).host;
  }

  /** A client with no credentials, addressed to this organization. */
  anonymous(): ApiClient {
    return new ApiClient(this.info.gatewayUrl, { host: this.host, forwardedFor: this.clientAddress });
  }

  as(name: DevUserName): ApiClient {
    const user = this.users[name];
    return this.anonymous().withCredentials(user.email, user.apiKey);
  }

  user(name: DevUserName): WorldUser {
    return this.users[name];
  }
}

export interface CreateWorldOptions {
  /** '' creates the development organization; by default a random subdomain. */
  subdomain?: string;
  password?: string;
  jwtKey?: string | null;
  name?: string;
}

/**
 * Creates an organization with the development accounts through the settings service, waits until the other
 * services know them, and (once the messaging service exists) creates the development channels.
 */
export async function createWorld(info: StackInfo, options: CreateWorldOptions = {}): Promise<World> {
  const subdomain = options.subdomain ?? `t${randomBytes(5).toString('hex')}`;
  const created = await internal<{
    realm: RealmInfo;
    users: { user_id: number; email: string; full_name: string; role: number; is_bot: boolean; api_key: string }[];
    event_ids: string[];
    msg?: string;
  }>(info, 'settings', 'POST', '/dev/realms', {
    string_id: subdomain,
    name: options.name,
    password: options.password ?? DEV_PASSWORD,
    jwt_key: options.jwtKey === undefined ? DEV_JWT_KEY : options.jwtKey,
  });
  if (created.status !== 200)
    throw new Error(`creating organization '${subdomain}' failed: ${created.body.msg ?? created.status}`);
  const users = {} as Record<DevUserName, WorldUser>;
  for (const u of created.body.users) {
    users[u.email.split('@')[0] as DevUserName] = {
      id: u.user_id,
      email: u.email,
      fullName: u.full_name,
      role: u.role,
      isBot: u.is_bot,
      apiKey: u.api_key,
    };
  }
  await waitForEvents(info, created.body.event_ids);
  const address = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${(randomBytes(1)[0]! % 250) + 1}`;
  const world = new World(info, created.body.realm, users, address);
  if (info.serviceUrls.messaging) await seedChannels(world);
  return world;
}

/** Public channels Denmark, Scotland, Verona, Venice and Rome: every non-guest in all of them, Polonius in Verona. */
async function seedChannels(world: World): Promise<void> {
  const owner = world.as('desdemona');
  const members = Object.values(world.users)
    .filter((u) => u.role !== ROLE_GUEST)
    .map((u) => u.id);
  const response = await owner.post('/users/me/subscriptions', {
    subscriptions: DEV_CHANNELS.map((name) => ({ name, description: `The ${name} channel.` })),
    principals: members,
  });
  if (response.status !== 200) throw new Error(`creating channels failed: ${response.text}`);
  const verona = await owner.post('/users/me/subscriptions', {
    subscriptions: [{ name: 'Verona' }],
    principals: [world.user('polonius').id],
  });
  if (verona.status !== 200) throw new Error(`subscribing polonius failed: ${verona.text}`);
}
