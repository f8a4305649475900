import type { World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { anonymousClient, newWorld, system } from './support/system';

/** GET /calls/bigbluebutton/create as a Zulip server without BigBlueButton settings answers it. */
describe('BigBlueButton meeting links', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld();
  });

  it('answers a signed join link for the meeting, different for each meeting', async () => {
    const response = await world.as('hamlet').get('/calls/bigbluebutton/create', { meeting_name: 'Rehearsal' });
    expectSuccess(response, 'GET', '/calls/bigbluebutton/create');
    const url = new URL(response.body.url as string, system().gatewayUrl);
    expect(url.pathname).toBe('/calls/bigbluebutton/join');
    const [value, mac] = url.searchParams.get('bigbluebutton')!.split(':');
    expect(mac).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(JSON.parse(Buffer.from(value!, 'base64url').toString())).toEqual({
      meeting_id: expect.stringMatching(/^zulip-\d{12}$/),
      name: 'Rehearsal',
      lock_settings_disable_cam: false,
      moderator: world.user('hamlet').id,
    });
    const voice = await world.as('cordelia').get('/calls/bigbluebutton/create', {
      meeting_name: 'Rehearsal',
      voice_only: true,
    });
    expectSuccess(voice, 'GET', '/calls/bigbluebutton/create');
    const details = new URL(voice.body.url as string, system().gatewayUrl).searchParams.get('bigbluebutton')!;
    expect(JSON.parse(Buffer.from(details.split(':')[0]!, 'base64url').toString())).toMatchObject({
      lock_settings_disable_cam: true,
      moderator: world.user('cordelia').id,
    });
    expect(voice.body.url).not.toBe(response.body.url);

    // Opening the link: Zulip's answer where no BigBlueButton server is configured.
    const join = await fetch(url);
    expect(join.status).toBe(400);
    expect(await join.text()).toContain('<p>BigBlueButton is not configured.</p>');
  });

  it('needs a meeting name, a boolean voice_only and credentials', async () => {
    expectError(
      await world.as('hamlet').get('/calls/bigbluebutton/create'),
      400,
      'REQUEST_VARIABLE_MISSING',
      "Missing 'meeting_name' argument",
      { var_name: 'meeting_name' },
    );
    const bad = await world.as('hamlet').get('/calls/bigbluebutton/create', { meeting_name: 'x', voice_only: 'maybe' });
    expect({ status: bad.status, code: bad.body.code }).toEqual({ status: 400, code: 'BAD_REQUEST' });
    const anonymous = await anonymousClient().get('/calls/bigbluebutton/create', { meeting_name: 'x' });
    expect(anonymous.status).toBe(401);
  });
});
