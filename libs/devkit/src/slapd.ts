import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Attribute, Change, Client } from 'ldapts';
import { freePort } from './infra.js';
import { waitForPort } from './rabbit-cluster.js';

/** Debian's OpenLDAP server (`apt-get install slapd`; `npm test` installs it like chromium). */
export const SLAPD = process.env.CONFAB_SLAPD ?? '/usr/sbin/slapd';

/** An attribute's value or values: text, or bytes (a Buffer). */
export type LdapValues = string | Buffer | string[] | Buffer[];

function attributesOf(attributes: Record<string, LdapValues>): Attribute[] {
  return Object.entries(attributes).map(
    ([type, values]) =>
      new Attribute({ type, values: (Array.isArray(values) ? values : [values]) as string[] | Buffer[] }),
  );
}

export interface Slapd {
  url: string;
  baseDn: string;
  /** The directory's administrator (the service account of the tests). */
  adminDn: string;
  adminPassword: string;
  /** Adds an entry (attributes by name, each a value or a list of them; bytes, like a jpegPhoto, as a Buffer). */
  add(dn: string, attributes: Record<string, LdapValues>): Promise<void>;
  /** Replaces attributes of an entry. */
  replace(dn: string, attributes: Record<string, LdapValues>): Promise<void>;
  remove(dn: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Two attributes OpenLDAP's schemas lack, so that a test directory can carry Active Directory's userAccountControl
 * and a boolean "disabled" flag (CONFAB_LDAP_DEACTIVATED_ATTR) on its people.
 */
const TEST_SCHEMA = `attributetype ( 1.3.6.1.4.1.55555.1.1 NAME 'userAccountControl' EQUALITY integerMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.27 SINGLE-VALUE )
attributetype ( 1.3.6.1.4.1.55555.1.2 NAME 'confabDisabled' EQUALITY booleanMatch SYNTAX 1.3.6.1.4.1.1466.115.121.1.7 SINGLE-VALUE )
objectclass ( 1.3.6.1.4.1.55555.2.1 NAME 'confabAccount' AUXILIARY MAY ( userAccountControl $ confabDisabled ) )
`;

/**
 * An OpenLDAP server of its own on 127.0.0.1 (a random port, its files in a temporary directory), with the suffix
 * `baseDn`, an `ou=people` under it and an administrator; `stop` ends it and removes its files.
 */
export async function startSlapd(options: { baseDn?: string } = {}): Promise<Slapd> {
  if (!existsSync(SLAPD)) throw new Error(`${SLAPD} is missing: apt-get install slapd (npm test installs it)`);
  const baseDn = options.baseDn ?? 'dc=example,dc=com';
  const adminDn = `cn=admin,${baseDn}`;
  const adminPassword = 'directory-admin-secret';
  const dir = mkdtempSync(join(tmpdir(), 'confab-slapd-'));
  const dataDir = join(dir, 'data');
  mkdirSync(dataDir);
  const port = await freePort();
  writeFileSync(join(dir, 'test.schema'), TEST_SCHEMA);
  const schemas = ['core', 'cosine', 'inetorgperson', 'nis'].map((s) => `include /etc/ldap/schema/${s}.schema`);
  writeFileSync(
    join(dir, 'slapd.conf'),
    [
      ...schemas,
      `include ${join(dir, 'test.schema')}`,
      `pidfile ${join(dir, 'slapd.pid')}`,
      // An "unauthenticated bind" (a DN, no password) succeeds here, as on many directories: a client that passed an
      // empty password through would log anyone in, which the tests check Confab never does.
      'allow bind_anon_dn',
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      'database mdb',
      `suffix "${baseDn}"`,
      `rootdn "${adminDn}"`,
      `rootpw ${adminPassword}`,
      `directory ${dataDir}`,
      'maxsize 10485760',
      // Passwords are for binding only; everything else is readable by whoever has bound (the service account).
      'access to attrs=userPassword by self =xw by anonymous auth by * none',
      'access to * by users read by anonymous auth',
      '',
    ].join('\n'),
  );
  const url = `ldap://127.0.0.1:${port}`;
  // In the foreground (-d): the test owns the process and its end.
  const child: ChildProcess = spawn(SLAPD, ['-f', join(dir, 'slapd.conf'), '-h', `${url}/`, '-d', '0'], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.kill('SIGINT');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000).unref())]);
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitForPort(port, true, 15_000, 'slapd');
  } catch (err) {
    await stop();
    throw err;
  }
  const admin = async <T>(fn: (client: Client) => Promise<T>): Promise<T> => {
    const client = new Client({ url, timeout: 10_000, connectTimeout: 10_000 });
    try {
      await client.bind(adminDn, adminPassword);
      return await fn(client);
    } finally {
      await client.unbind().catch(() => undefined);
    }
  };
  const directory: Slapd = {
    url,
    baseDn,
    adminDn,
    adminPassword,
    add: (dn, attributes) => admin((c) => c.add(dn, attributesOf(attributes))),
    replace: (dn, attributes) =>
      admin((c) =>
        c.modify(
          dn,
          attributesOf(attributes).map((modification) => new Change({ operation: 'replace', modification })),
        ),
      ),
    remove: (dn) => admin((c) => c.del(dn)),
    stop,
  };
  try {
    const dc = baseDn.split(',')[0]!.split('=')[1]!;
    await directory.add(baseDn, { objectClass: ['top', 'dcObject', 'organization'], o: 'Example', dc });
    await directory.add(`ou=people,${baseDn}`, { objectClass: ['top', 'organizationalUnit'], ou: 'people' });
  } catch (err) {
    await stop();
    throw err;
  }
  return directory;
}
