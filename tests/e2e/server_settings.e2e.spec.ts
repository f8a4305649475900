import type { World } from '@confab/devkit';
import { expectError, expectSuccess } from './support/expect';
import { newWorld } from './support/system';

describe('GET /server_settings', () => {
  let world: World;
  beforeAll(async () => {
    world = await newWorld({ name: 'Server Settings Org' });
  });

  it('answers without credentials with every field docs/api.md lists, under both naming schemes', async () => {
    const response = await world.anonymous().get('/server_settings');
    expectSuccess(response, 'GET', '/server_settings');
    const body = response.body;
    expect(body.zulip_feature_level).toBe(496);
    expect(body.service_feature_level).toBe(496);
    expect(body.zulip_version).toBe(body.service_version);
    expect(body.zulip_merge_base).toBe(body.service_merge_base);
    expect(body.push_notifications_enabled).toBe(false);
    expect(body.is_incompatible).toBe(false);
    expect(body.email_auth_enabled).toBe(true);
    expect(body.require_email_format_usernames).toBe(true);
    expect(body.realm_name).toBe('Server Settings Org');
    expect(body.realm_url).toBe(world.realm.url);
    expect(body.realm_uri).toBe(world.realm.url);
    expect(body.realm_description).toMatch(/^<p>/);
    expect(body.realm_icon).toMatch(/^https:\/\//);
    expect(body.realm_web_public_access_enabled).toBe(false);
    expect(body.external_authentication_methods).toEqual([]);
    expect(Object.keys(body.authentication_methods).sort()).toEqual([
      'apple',
      'azuread',
      'dev',
      'email',
      'github',
      'gitlab',
      'google',
      'ldap',
      'openid connect',
      'password',
      'remoteuser',
      'saml',
    ]);
    expect(body.authentication_methods.password).toBe(true);
  });

  it('tells old official clients they are incompatible', async () => {
    const response = await world
      .anonymous()
      .get('/server_settings', {}, { headers: { 'user-agent': 'ZulipInvalid/1.0' } });
    expect(response.body.is_incompatible).toBe(true);
  });

  it('answers "Invalid subdomain" for an organization that does not exist', async () => {
    const host = world.host.replace(/^[^.]+\./, 'nosuchorg.');
    const response = await world.anonymous().get('/server_settings', {}, { headers: { host } });
    expectError(response, 400, 'BAD_REQUEST', 'Invalid subdomain');
  });

  it('answers 405 with the allowed methods for another method', async () => {
    const response = await world.anonymous().post('/server_settings');
    expect(response.status).toBe(405);
    expect(response.body).toEqual({ result: 'error', msg: 'Method Not Allowed', allowed_methods: ['GET'] });
  });
});
