import type { World } from '@confab/devkit';
import { EventTap } from './support/events';
import { expectError, expectSuccess } from './support/expect';
import { initialState } from './support/internal';
import { OAuthStub } from './support/oauth-stub';
import { openPage } from './support/pages';
import { newWorld, system } from './support/system';
import { SettingsVariant } from './support/variant';

// Each describe starts a settings process of its own; its first request warms its database client up.
jest.setTimeout(30_000);

const CREATE = '/calls/meetingprovider/create';
const REGISTER = '/calls/meetingprovider/register';

describe('POST /calls/meetingprovider/create without a provider configured', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('answers a clear 400', async () => {
    expectError(
      await world.as('hamlet').post(CREATE),
      400,
      'BAD_REQUEST',
      'No meeting provider is configured on this server.',
    );
    expectError(
      await world.as('hamlet').post(REGISTER),
      400,
      'BAD_REQUEST',
      'No meeting provider is configured on this server.',
    );
    const state = await initialState(world.user('hamlet').id);
    expect(state).toMatchObject({ has_meetingprovider_token: false, meeting_provider: null });
  });

  it('has no authorization page', async () => {
    const page = await openPage(
      system().gatewayUrl,
      `${world.realm.url}/calls/meetingprovider/complete?code=x&state=y`,
    );
    expect(page.status).toBe(404);
  });
});

describe('POST /calls/meetingprovider/create with a link-only (Jitsi-style) provider', () => {
  let world: World;
  let variant: SettingsVariant;
  beforeAll(async () => {
    world = await newWorld();
    variant = await SettingsVariant.start({
      CONFAB_MEETING_PROVIDER: 'jitsi',
      CONFAB_JITSI_SERVER_URL: 'https://meet.example.test/',
    });
  });
  afterAll(() => variant.stop());

  it('answers a link to a fresh, unguessable room on the configured server', async () => {
    const first = await variant.as(world, 'hamlet').post(CREATE);
    expectSuccess(first, 'POST', CREATE, { undocumented: true });
    expect(first.body).toEqual({
      result: 'success',
      msg: '',
      url: expect.stringMatching(/^https:\/\/meet\.example\.test\/[a-z0-9]{20}$/),
    });
    const second = await variant.as(world, 'cordelia').post(CREATE);
    expect(second.body.url).not.toBe(first.body.url);
  });

  it('needs no token: has_meetingprovider_token is true and there is nothing to authorize', async () => {
    expect(await variant.initialState(world.user('hamlet').id)).toMatchObject({
      has_meetingprovider_token: true,
      meeting_provider: { name: 'Jitsi', kind: 'link' },
    });
    expectError(await variant.as(world, 'hamlet').post(REGISTER), 400, 'BAD_REQUEST', 'Jitsi needs no authorization');
  });
});

describe('POST /calls/meetingprovider/create with an OAuth provider', () => {
  let world: World;
  let stub: OAuthStub;
  let variant: SettingsVariant;
  let tap: EventTap;

  beforeAll(async () => {
    world = await newWorld();
    stub = await OAuthStub.start();
    variant = await SettingsVariant.start({
      CONFAB_MEETING_PROVIDER: 'oauth',
      CONFAB_MEETING_PROVIDER_NAME: 'Zoom',
      CONFAB_MEETING_OAUTH_CLIENT_ID: stub.clientId,
      CONFAB_MEETING_OAUTH_CLIENT_SECRET: stub.clientSecret,
      CONFAB_MEETING_OAUTH_AUTHORIZE_URL: `${stub.url}/oauth/authorize`,
      CONFAB_MEETING_OAUTH_TOKEN_URL: `${stub.url}/oauth/token`,
      CONFAB_MEETING_OAUTH_CREATE_URL: `${stub.url}/v2/meetings`,
      CONFAB_MEETING_TOKEN_KEY: 'e2e-meeting-token-key-0123456789',
    });
    tap = await EventTap.open(['meeting_provider_token.changed']);
  });
  afterAll(async () => {
    await tap.close();
    await variant.stop();
    await stub.close();
  });

  /** Registers, lets the provider approve, and follows its redirect back: what a user's browser does. */
  async function authorize(name: 'hamlet' | 'cordelia' | 'othello' | 'prospero' | 'aaron') {
    const register = await variant.as(world, name).post(REGISTER);
    expectSuccess(register, 'POST', REGISTER, { undocumented: true });
    const approval = await openPage(stub.url, register.body.url as string);
    expect(approval.status).toBe(302);
    // The provider sends the browser to the server's external address; this test reaches it through the variant's gateway.
    return openPage(variant.gatewayUrl, approval.headers.location as string);
  }

  it('without authorization, answers 400 with its own code', async () => {
    expectError(
      await variant.as(world, 'hamlet').post(CREATE),
      400,
      'INVALID_VIDEO_CALL_PROVIDER_TOKEN',
      'Invalid Zoom access token',
    );
    expect((await variant.initialState(world.user('hamlet').id)).has_meetingprovider_token).toBe(false);
  });

  it('sends the user to the provider with the client id, the redirect URI and a state', async () => {
    const register = await variant.as(world, 'hamlet').post(REGISTER);
    const url = new URL(register.body.url as string);
    expect(`${url.origin}${url.pathname}`).toBe(`${stub.url}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: stub.clientId,
      redirect_uri: `${system().gatewayUrl.replace('127.0.0.1', 'localhost')}/calls/meetingprovider/complete`,
      state: expect.stringMatching(/^[\w-]{32}$/),
    });
  });

  it('after the authorization-code flow, creates meetings with the stored token and reports the token', async () => {
    const hamlet = world.user('hamlet');
    const page = await authorize('hamlet');
    expect(page.status).toBe(200);
    expect(page.text).toContain('You can now create Zoom meetings');
    const event = await tap.next((e) => e.payload.user_id === hamlet.id && e.payload.has_token === true);
    expect(event.payload).toEqual({ user_id: hamlet.id, realm_id: world.realm.realm_id, has_token: true });
    expect((await variant.initialState(hamlet.id)).has_meetingprovider_token).toBe(true);

    const created = await variant.as(world, 'hamlet').post(CREATE);
    expectSuccess(created, 'POST', CREATE, { undocumented: true });
    expect(created.body.url).toMatch(/^https:\/\/meet\.stub\.test\/j\/\d+$/);
    // The token is the user's own: another user still has none.
    expectError(
      await variant.as(world, 'cordelia').post(CREATE),
      400,
      'INVALID_VIDEO_CALL_PROVIDER_TOKEN',
      'Invalid Zoom access token',
    );
  });

  it('uses a state once, and refuses unknown states, refused codes and denied authorizations', async () => {
    const page = await authorize('cordelia');
    expect(page.status).toBe(200);
    const register = await variant.as(world, 'cordelia').post(REGISTER);
    const approval = await openPage(stub.url, register.body.url as string);
    const back = new URL(approval.headers.location as string);
    const state = back.searchParams.get('state')!;
    const complete = (query: string) =>
      openPage(variant.gatewayUrl, `${world.realm.url}/calls/meetingprovider/complete?${query}`);

    const refused = await complete(`code=not-a-code&state=${state}`);
    expect(refused.status).toBe(400);
    expect(refused.text).toContain('Invalid Zoom credentials');
    const reused = await complete(`code=${back.searchParams.get('code')}&state=${state}`);
    expect(reused.status).toBe(400);
    expect(reused.text).toContain('Invalid Zoom session identifier');
    const denied = await complete('error=access_denied&state=whatever');
    expect(denied.status).toBe(400);
    expect(denied.text).toContain('did not grant access (access_denied)');
  });

  it('refreshes an expiring token before using it', async () => {
    stub.expiresIn = 30;
    try {
      await authorize('othello');
    } finally {
      stub.expiresIn = 3600;
    }
    const refreshes = stub.counts.refreshes;
    const created = await variant.as(world, 'othello').post(CREATE);
    expectSuccess(created, 'POST', CREATE, { undocumented: true });
    expect(stub.counts.refreshes).toBe(refreshes + 1);
    // The refreshed token (good for an hour) is stored and used from then on.
    const used = stub.meetingTokens[stub.meetingTokens.length - 1];
    expectSuccess(await variant.as(world, 'othello').post(CREATE), 'POST', CREATE, { undocumented: true });
    expect(stub.counts.refreshes).toBe(refreshes + 1);
    expect(stub.meetingTokens[stub.meetingTokens.length - 1]).toBe(used);
  });

  it('drops a token the provider refuses, tells the clients, and asks for authorization again', async () => {
    const prospero = world.user('prospero');
    await authorize('prospero');
    expectSuccess(await variant.as(world, 'prospero').post(CREATE), 'POST', CREATE, { undocumented: true });
    stub.revokeAll('access');
    expectError(
      await variant.as(world, 'prospero').post(CREATE),
      400,
      'INVALID_VIDEO_CALL_PROVIDER_TOKEN',
      'Invalid Zoom access token',
    );
    const event = await tap.next((e) => e.payload.user_id === prospero.id && e.payload.has_token === false);
    expect(event.payload).toEqual({ user_id: prospero.id, realm_id: world.realm.realm_id, has_token: false });
    expect((await variant.initialState(prospero.id)).has_meetingprovider_token).toBe(false);
    // Authorizing again makes it work again.
    await authorize('prospero');
    expectSuccess(await variant.as(world, 'prospero').post(CREATE), 'POST', CREATE, { undocumented: true });
  });

  it('drops a token whose refresh the provider refuses', async () => {
    const aaron = world.user('aaron');
    stub.expiresIn = 30;
    try {
      await authorize('aaron');
    } finally {
      stub.expiresIn = 3600;
    }
    stub.revokeAll('refresh');
    expectError(
      await variant.as(world, 'aaron').post(CREATE),
      400,
      'INVALID_VIDEO_CALL_PROVIDER_TOKEN',
      'Invalid Zoom access token',
    );
    await tap.next((e) => e.payload.user_id === aaron.id && e.payload.has_token === false);
    expect((await variant.initialState(aaron.id)).has_meetingprovider_token).toBe(false);
  });

  it('reports a provider failure without dropping the token', async () => {
    await authorize('cordelia');
    stub.failMeetings = true;
    try {
      expectError(await variant.as(world, 'cordelia').post(CREATE), 400, 'BAD_REQUEST', 'Failed to create Zoom call');
    } finally {
      stub.failMeetings = false;
    }
    expectSuccess(await variant.as(world, 'cordelia').post(CREATE), 'POST', CREATE, { undocumented: true });
  });

  it('does not let bots start an authorization', async () => {
    expectError(
      await variant.as(world, 'default-bot').post(REGISTER),
      400,
      'BAD_REQUEST',
      'This endpoint does not accept bot requests.',
    );
  });
});
