import {
  entryDisabled,
  entryEmail,
  entryFullName,
  escapeDnValue,
  escapeFilterValue,
  ldapAuthenticate,
  searchFilter,
} from '../src/domain/sso/ldap';
import type { Directory, DirectoryEntry } from '../src/domain/sso/ports';
import type { LdapSettings } from '../src/domain/sso/settings';

const settings: LdapSettings = {
  url: 'ldap://127.0.0.1:389',
  bindDn: 'cn=admin,dc=example,dc=com',
  bindPassword: 'secret',
  userSearchBase: 'ou=people,dc=example,dc=com',
  userFilter: '(uid={username})',
  userDnTemplate: '',
  emailAttr: 'mail',
  nameAttr: 'cn',
  avatarAttr: '',
  profileFieldAttrs: {},
  deactivatedAttr: 'nsAccountLock',
  appendDomain: '',
  syncIntervalSeconds: 0,
  timeoutMs: 1000,
};

const entry = (attributes: Record<string, string[]>): DirectoryEntry => ({ dn: 'uid=x,ou=people', attributes });

describe('LDAP filter and DN escaping (RFC 4515, RFC 4514)', () => {
  it('escapes the filter metacharacters, so an injection is a literal value', () => {
    expect(escapeFilterValue('*)(uid=*')).toBe('\\2a\\29\\28uid=\\2a');
    expect(escapeFilterValue('a\\b\0c')).toBe('a\\5cb\\00c');
    expect(searchFilter(settings, '*)(uid=*')).toBe('(uid=\\2a\\29\\28uid=\\2a)');
    expect(escapeFilterValue('ophélie')).toBe('ophélie');
  });

  it('matches the email attribute too for a login in email form', () => {
    expect(searchFilter(settings, 'o@example.com')).toBe('(|(uid=o@example.com)(mail=o@example.com))');
    expect(searchFilter({ ...settings, appendDomain: 'example.com' }, 'o')).toBe('(uid=o)');
  });

  it('escapes DN values', () => {
    expect(escapeDnValue('a,b+c"d\\e<f>g;h=i')).toBe('a\\,b\\+c\\"d\\\\e\\<f\\>g\\;h\\=i');
    expect(escapeDnValue('#lead')).toBe('\\#lead');
    expect(escapeDnValue(' x ')).toBe('\\ x\\ ');
  });
});

describe('directory entries', () => {
  it("reads AD's ACCOUNTDISABLE bit and the configured attribute", () => {
    expect(entryDisabled(settings, entry({ userAccountControl: ['512'] }))).toBe(false);
    expect(entryDisabled(settings, entry({ userAccountControl: ['514'] }))).toBe(true);
    expect(entryDisabled(settings, entry({ useraccountcontrol: ['66050'] }))).toBe(true);
    expect(entryDisabled(settings, entry({ nsAccountLock: ['true'] }))).toBe(true);
    expect(entryDisabled(settings, entry({ nsAccountLock: ['FALSE'] }))).toBe(false);
  });

  it('maps email and name, with LDAP_APPEND_DOMAIN and fallbacks', () => {
    const e = entry({ uid: ['ophelia'], mail: ['Ophelia@Example.com'], cn: ['Ophelia P.'] });
    expect(entryEmail(settings, e, 'ophelia')).toBe('Ophelia@Example.com');
    expect(entryEmail({ ...settings, appendDomain: 'corp.example' }, e, 'ophelia')).toBe('ophelia@corp.example');
    expect(entryEmail(settings, entry({ uid: ['x'] }), 'x')).toBeNull();
    expect(entryFullName(settings, e, 'ophelia@example.com')).toBe('Ophelia P.');
    expect(entryFullName(settings, entry({}), 'ophelia@example.com')).toBe('ophelia');
  });
});

describe('ldapAuthenticate', () => {
  function directory(found: DirectoryEntry[]): Directory & { calls: string[] } {
    const calls: string[] = [];
    return {
      calls,
      async search(_s, filter) {
        calls.push(`search ${filter}`);
        return found;
      },
      async checkPassword(_s, dn, password) {
        calls.push(`bind ${dn}`);
        return password === 'right';
      },
      async bindAndRead(_s, dn, password) {
        calls.push(`bindAndRead ${dn}`);
        return password === 'right' ? entry({}) : null;
      },
    };
  }

  it('refuses an empty password before asking the directory anything', async () => {
    const d = directory([entry({})]);
    expect(await ldapAuthenticate(d, settings, 'ophelia', '')).toBeNull();
    expect(d.calls).toEqual([]);
  });

  it('binds as the one entry found, and refuses when none or several match', async () => {
    const one = directory([entry({ mail: ['a@b.c'] })]);
    expect(await ldapAuthenticate(one, settings, 'ophelia', 'right')).not.toBeNull();
    expect(one.calls).toEqual(['search (uid=ophelia)', 'bind uid=x,ou=people']);
    expect(await ldapAuthenticate(one, settings, 'ophelia', 'wrong')).toBeNull();
    const two = directory([entry({}), entry({})]);
    expect(await ldapAuthenticate(two, settings, '*', 'right')).toBeNull();
    expect(two.calls).toEqual(['search (uid=\\2a)']);
  });

  it('binds directly through the DN template, the name escaped', async () => {
    const d = directory([]);
    const direct = { ...settings, userSearchBase: '', userDnTemplate: 'uid={username},ou=people,dc=example,dc=com' };
    expect(await ldapAuthenticate(d, direct, 'a,b', 'right')).not.toBeNull();
    expect(d.calls).toEqual(['bindAndRead uid=a\\,b,ou=people,dc=example,dc=com']);
  });
});
