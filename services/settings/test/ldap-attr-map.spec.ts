import { ConfigError } from '@confab/config';
import { loadConfig } from '../src/config';
import { entryAttributes } from '../src/domain/sso/ldap';
import { parseLdapAttrMap } from '../src/ldap-attr-map';

const BASE = {
  SETTINGS_DATABASE_URL: 'postgresql://postgres@127.0.0.1/x',
  NODE_ENV: 'test',
  CONFAB_LDAP_URL: 'ldap://127.0.0.1:389',
  CONFAB_LDAP_USER_SEARCH_BASE: 'ou=people,dc=example,dc=com',
};

/** The message a configuration error stops the service with. */
function problemOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  throw new Error('no configuration error');
}

describe('CONFAB_LDAP_USER_ATTR_MAP (Zulip AUTH_LDAP_USER_ATTR_MAP keys)', () => {
  it('reads full_name, avatar, custom profile fields (names as Zulip compares them) and the AD keys', () => {
    expect(
      parseLdapAttrMap(
        JSON.stringify({
          full_name: 'displayName',
          avatar: 'jpegPhoto',
          custom_profile_field__phone: 'telephoneNumber',
          'custom_profile_field__Desk Number': 'roomNumber',
          userAccountControl: 'userAccountControl',
          deactivated: 'nsAccountLock',
        }),
      ),
    ).toEqual({
      fullName: 'displayName',
      avatar: 'jpegPhoto',
      deactivated: 'nsAccountLock',
      profileFields: { phone: 'telephoneNumber', desk_number: 'roomNumber' },
    });
    expect(parseLdapAttrMap('  ')).toEqual({ fullName: null, avatar: null, deactivated: null, profileFields: {} });
  });

  it('refuses bad JSON, a non-object, unknown keys and values that are not attribute names, naming the variable', () => {
    expect(problemOf(() => parseLdapAttrMap('{"avatar": '))).toMatch(/CONFAB_LDAP_USER_ATTR_MAP: not valid JSON/);
    expect(problemOf(() => parseLdapAttrMap('["cn"]'))).toMatch(/CONFAB_LDAP_USER_ATTR_MAP: must be a JSON object/);
    expect(problemOf(() => parseLdapAttrMap('{"first_name": "givenName"}'))).toMatch(
      /CONFAB_LDAP_USER_ATTR_MAP: unknown key "first_name"/,
    );
    expect(problemOf(() => parseLdapAttrMap('{"custom_profile_field__": "title"}'))).toMatch(/unknown key/);
    expect(problemOf(() => parseLdapAttrMap('{"avatar": 7}'))).toMatch(/avatar: must be an LDAP attribute name/);
    expect(problemOf(() => parseLdapAttrMap('{"full_name": "cn)(uid=*"}'))).toMatch(
      /full_name: must be an LDAP attribute name/,
    );
    expect(problemOf(() => parseLdapAttrMap('{"userAccountControl": "other"}'))).toMatch(/userAccountControl/);
  });

  it('stops the service at start when malformed', () => {
    expect(problemOf(() => loadConfig({ ...BASE, CONFAB_LDAP_USER_ATTR_MAP: '{oops' }))).toMatch(
      /CONFAB_LDAP_USER_ATTR_MAP: not valid JSON/,
    );
    expect(
      problemOf(() =>
        loadConfig({
          ...BASE,
          CONFAB_LDAP_DEACTIVATED_ATTR: 'confabDisabled',
          CONFAB_LDAP_USER_ATTR_MAP: '{"deactivated": "nsAccountLock"}',
        }),
      ),
    ).toMatch(/CONFAB_LDAP_DEACTIVATED_ATTR/);
  });

  it("full_name wins over CONFAB_LDAP_NAME_ATTR, which keeps working without it; the entry's attributes are read", () => {
    const plain = loadConfig({ ...BASE, CONFAB_LDAP_NAME_ATTR: 'displayName' }).sso.ldap!;
    expect({ name: plain.nameAttr, avatar: plain.avatarAttr, fields: plain.profileFieldAttrs }).toEqual({
      name: 'displayName',
      avatar: '',
      fields: {},
    });
    expect(loadConfig(BASE).sso.ldap!.nameAttr).toBe('cn');
    const mapped = loadConfig({
      ...BASE,
      CONFAB_LDAP_NAME_ATTR: 'displayName',
      CONFAB_LDAP_USER_ATTR_MAP: JSON.stringify({
        full_name: 'gecos',
        avatar: 'thumbnailPhoto',
        custom_profile_field__phone: 'telephoneNumber',
        deactivated: 'nsAccountLock',
      }),
    }).sso.ldap!;
    expect(mapped).toMatchObject({
      nameAttr: 'gecos',
      avatarAttr: 'thumbnailPhoto',
      deactivatedAttr: 'nsAccountLock',
      profileFieldAttrs: { phone: 'telephoneNumber' },
    });
    expect(entryAttributes(mapped)).toEqual(
      expect.arrayContaining(['mail', 'gecos', 'thumbnailPhoto', 'telephoneNumber', 'nsAccountLock']),
    );
  });
});
