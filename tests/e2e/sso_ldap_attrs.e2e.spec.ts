import { startSlapd, type Slapd, type World } from '@confab/devkit';
import { EventQueue } from './support/event-queues';
import { pngOf, pngSize } from './support/images';
import {
  LDAP_PEOPLE as PEOPLE,
  ldapDn as dn,
  ldapPerson as person,
  runLdapSync,
  useSsoStack,
  type SsoStack,
} from './support/sso';
import { newWorld, system } from './support/system';

/**
 * Zulip's AUTH_LDAP_USER_ATTR_MAP beyond email and name (CONFAB_LDAP_USER_ATTR_MAP), against a real slapd: the
 * avatar from the entry's jpegPhoto and a custom profile field from telephoneNumber, set when the first login makes
 * the account and again by the directory sync (`cli.js sync-ldap`) when the entry changes; a photo that is not an
 * image is ignored; an unchanged entry changes nothing.
 */

interface Person {
  user_id: number;
  avatar_url: string | null;
  avatar_version: number;
  profile_data?: Record<string, { value: string }>;
}

describe('LDAP attributes: avatar from jpegPhoto, custom profile fields (real slapd)', () => {
  const startStack = useSsoStack();
  let directory: Slapd;
  let world: World;
  let stack: SsoStack;
  let ldapEnv: Record<string, string>;
  let phoneField: number;
  const ids: Record<string, number> = {};
  const photo = pngOf(64, 48, 0x40);

  /** The user as an administrator sees them (GET /users/{id} with the profile fields). */
  const seen = async (userId: number): Promise<Person> => {
    const response = await stack.as(world, 'iago').get(`/users/${userId}`, { include_custom_profile_fields: true });
    expect(response.status).toBe(200);
    return response.body.user as Person;
  };
  const phoneOf = (user: Person) => user.profile_data?.[String(phoneField)]?.value;
  const login = async (username: string, password: string) => {
    const response = await stack.anonymous(world).post('/fetch_api_key', { username, password });
    expect(response.status).toBe(200);
    return response.body.user_id as number;
  };
  const sync = () => runLdapSync(ldapEnv, world.realm.string_id);
  const uploaded = (userId: number) =>
    new RegExp(`^/user_avatars/${world.realm.realm_id}/${userId}-[0-9a-f]{16}\\.png\\?version=\\d+$`);

  beforeAll(async () => {
    directory = await startSlapd();
    await directory.add(
      dn('rosalind'),
      person('rosalind', 'Rosalind de Boys', 'forest-secret-1', { jpegPhoto: photo, telephoneNumber: '+1 555 0101' }),
    );
    await directory.add(
      dn('celia'),
      person('celia', 'Celia', 'cousin-secret-2', {
        jpegPhoto: Buffer.from('this is not a picture at all'),
        telephoneNumber: '+1 555 0102',
      }),
    );
    world = await newWorld();
    const field = await world.as('iago').post('/realm/profile_fields', { name: 'Phone number', field_type: 1 });
    expect(field.status).toBe(200);
    phoneField = field.body.id as number;
    ldapEnv = {
      CONFAB_LDAP_URL: directory.url,
      CONFAB_LDAP_BIND_DN: directory.adminDn,
      CONFAB_LDAP_BIND_PASSWORD: directory.adminPassword,
      CONFAB_LDAP_USER_SEARCH_BASE: PEOPLE,
      CONFAB_LDAP_SYNC_INTERVAL_SECONDS: '0',
      // Zulip's keys; a field no organization has is ignored.
      CONFAB_LDAP_USER_ATTR_MAP: JSON.stringify({
        full_name: 'cn',
        avatar: 'jpegPhoto',
        custom_profile_field__phone_number: 'telephoneNumber',
        custom_profile_field__desk: 'roomNumber',
      }),
    };
    stack = await startStack(ldapEnv);
  }, 300_000);

  afterAll(async () => {
    await directory?.stop();
  });

  it("first login: the avatar is the entry's photo (resized, served), the phone field is the entry's number", async () => {
    ids.rosalind = await login('rosalind', 'forest-secret-1');
    const user = await seen(ids.rosalind);
    expect(user.avatar_url).toMatch(uploaded(ids.rosalind));
    const image = await fetch(new URL(user.avatar_url!, system().gatewayUrl));
    expect(image.status).toBe(200);
    expect(pngSize(Buffer.from(await image.arrayBuffer()))).toEqual({ width: 100, height: 100 });
    expect(phoneOf(user)).toBe('+1 555 0101');
    const me = await stack.as(world, 'iago').get('/users', { include_custom_profile_fields: true });
    const listed = (me.body.members as Person[]).find((u) => u.user_id === ids.rosalind)!;
    expect({ avatar: listed.avatar_url, phone: phoneOf(listed) }).toEqual({
      avatar: user.avatar_url,
      phone: '+1 555 0101',
    });
  });

  it('first login with a photo that is not an image: signed in, default avatar, the other fields set', async () => {
    ids.celia = await login('celia', 'cousin-secret-2');
    const user = await seen(ids.celia);
    expect(user.avatar_url ?? '').not.toMatch(/^\/user_avatars\//);
    expect(phoneOf(user)).toBe('+1 555 0102');
  });

  it('sync: an unchanged entry changes nothing; a new photo and number change them, with the update events', async () => {
    const before = await seen(ids.rosalind!);
    expect(await sync()).toMatchObject({ realms: 1, avatars: 0, profiles: 0 });
    const unchanged = await seen(ids.rosalind!);
    expect({ url: unchanged.avatar_url, version: unchanged.avatar_version }).toEqual({
      url: before.avatar_url,
      version: before.avatar_version,
    });

    const watcher = await EventQueue.register(world.as('cordelia'), { event_types: ['realm_user'] });
    // The number alone first: its event comes after anything the unchanged photo could have sent (nothing).
    await directory.replace(dn('rosalind'), { telephoneNumber: '+1 555 0199' });
    expect(await sync()).toMatchObject({ avatars: 0, profiles: 1 });
    const numbered = await watcher.next(
      (e) => e.type === 'realm_user' && e.person.user_id === ids.rosalind && e.person.custom_profile_field,
    );
    expect(numbered.person.custom_profile_field).toEqual({ id: phoneField, value: '+1 555 0199' });
    expect(watcher.seen.filter((e) => e.person?.user_id === ids.rosalind && 'avatar_url' in e.person)).toEqual([]);
    expect(phoneOf(await seen(ids.rosalind!))).toBe('+1 555 0199');

    await directory.replace(dn('rosalind'), { jpegPhoto: pngOf(30, 90, 0xc0) });
    expect(await sync()).toMatchObject({ avatars: 1, profiles: 0 });
    const changed = await seen(ids.rosalind!);
    expect(changed.avatar_url).toMatch(uploaded(ids.rosalind!));
    expect(changed.avatar_url).not.toBe(before.avatar_url);
    expect(changed.avatar_version).toBe(before.avatar_version + 1);
    const event = await watcher.next(
      (e) => e.type === 'realm_user' && e.person.user_id === ids.rosalind && 'avatar_url' in e.person,
    );
    expect(event.person).toMatchObject({ avatar_source: 'U', avatar_url: changed.avatar_url });
    const image = await fetch(new URL(changed.avatar_url!, system().gatewayUrl));
    expect(pngSize(Buffer.from(await image.arrayBuffer()))).toEqual({ width: 100, height: 100 });
  });

  it('sync: a photo that becomes invalid leaves the avatar as it was; the sync goes on', async () => {
    const before = await seen(ids.rosalind!);
    await directory.replace(dn('rosalind'), { jpegPhoto: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 1, 2, 3]) });
    await directory.replace(dn('celia'), { telephoneNumber: '+1 555 0177' });
    expect(await sync()).toMatchObject({ avatars: 0, profiles: 1 });
    const after = await seen(ids.rosalind!);
    expect({ url: after.avatar_url, version: after.avatar_version }).toEqual({
      url: before.avatar_url,
      version: before.avatar_version,
    });
    const image = await fetch(new URL(after.avatar_url!, system().gatewayUrl));
    expect(image.status).toBe(200);
    expect(phoneOf(await seen(ids.celia!))).toBe('+1 555 0177');
  });
});
