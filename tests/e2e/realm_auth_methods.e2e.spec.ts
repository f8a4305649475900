import jwt from 'jsonwebtoken';
import { DEV_JWT_KEY, DEV_PASSWORD, type World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

const UNDESCRIBED = { undocumented: true };
const methods = (value: Record<string, unknown>) => ({ authentication_methods: JSON.stringify(value) });

/** PATCH /realm with `authentication_methods` (owners only, as Zulip): the methods take effect at once. */
describe("the organization's authentication methods", () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  const jwtLogin = () =>
    world.anonymous().post('/jwt/fetch_api_key', { token: jwt.sign({ email: 'hamlet@zulip.com' }, DEV_JWT_KEY) });
  const passwordLogin = () =>
    world.anonymous().post('/fetch_api_key', { username: 'hamlet@zulip.com', password: DEV_PASSWORD });
  const state = async () =>
    (await world.as('hamlet').post('/register', { fetch_event_types: ['realm'] })).body.realm_authentication_methods;

  it('switches JWT and password sign-in off and on; everyone hears of it', async () => {
    expect(await state()).toEqual({
      Email: { enabled: true, available: true },
      JWT: { enabled: true, available: true },
    });
    const queue = await EventQueue.register(world.as('hamlet'), { event_types: ['realm'] });

    expectSuccess(
      await world.as('desdemona').patch('/realm', methods({ Email: true, JWT: false })),
      'PATCH',
      '/realm',
      UNDESCRIBED,
    );
    expectError(await jwtLogin(), 400, 'BAD_REQUEST', 'JWT authentication is not enabled for this organization');
    const event = await queue.next((e) => e.type === 'realm' && e.data?.authentication_methods !== undefined);
    expect(event).toEqual({
      id: event.id,
      type: 'realm',
      op: 'update_dict',
      property: 'default',
      data: {
        authentication_methods: {
          Email: { enabled: true, available: true },
          JWT: { enabled: false, available: true },
        },
      },
    });

    expectSuccess(
      await world.as('desdemona').patch('/realm', methods({ Email: false, JWT: true })),
      'PATCH',
      '/realm',
      UNDESCRIBED,
    );
    expectError(
      await passwordLogin(),
      401,
      'PASSWORD_AUTH_DISABLED',
      'Password authentication is disabled in this organization',
    );
    expectSuccess(await jwtLogin(), 'POST', '/jwt/fetch_api_key', UNDESCRIBED);
    expect(await state()).toEqual({
      Email: { enabled: false, available: true },
      JWT: { enabled: true, available: true },
    });
    expect(
      (await world.as('hamlet').post('/register', { fetch_event_types: ['realm'] })).body.realm_email_auth_enabled,
    ).toBe(false);

    expectSuccess(
      await world.as('desdemona').patch('/realm', methods({ Email: true })),
      'PATCH',
      '/realm',
      UNDESCRIBED,
    );
    expectSuccess(await passwordLogin(), 'POST', '/fetch_api_key');
  });

  it("refuses anyone but owners, no method at all and unknown methods, with Zulip's errors", async () => {
    expectError(
      await world.as('hamlet').patch('/realm', methods({ Email: true })),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization administrator',
    );
    expectError(
      await world.as('iago').patch('/realm', methods({ Email: true })),
      400,
      'UNAUTHORIZED_PRINCIPAL',
      'Must be an organization owner',
    );
    const owner = world.as('desdemona');
    expectError(
      await owner.patch('/realm', methods({ Email: false, JWT: false })),
      400,
      'BAD_REQUEST',
      'At least one authentication method must be enabled.',
    );
    expectError(
      await owner.patch('/realm', methods({ Email: true, LDAP: true })),
      400,
      'BAD_REQUEST',
      "Invalid authentication method: LDAP. Valid methods are: ['Email', 'JWT']",
    );
    expectError(
      await owner.patch('/realm', methods({ Email: 'yes' })),
      400,
      'BAD_REQUEST',
      'authentication_methods["Email"] is not a boolean',
    );
    expect(await state()).toEqual({
      Email: { enabled: true, available: true },
      JWT: { enabled: true, available: true },
    });
  });
});
