import { databaseServices } from '@confab/devkit';
import { databaseUrls, dataTrees, libpqUrl, SERVICE_DATABASES, toolPath } from '../src/operations/tools';

describe('backup and restore configuration', () => {
  it('covers every service database the process catalog lists', () => {
    expect(SERVICE_DATABASES.map((d) => [d.service, d.env])).toEqual(
      databaseServices().map((spec) => [spec.service, spec.databaseEnv]),
    );
  });

  it('refuses to run without one of them, naming the variable', () => {
    const env = Object.fromEntries(SERVICE_DATABASES.map((d) => [d.env, 'postgresql://db/x']));
    delete env.GROUPS_DATABASE_URL;
    expect(() => databaseUrls(env)).toThrow('GROUPS_DATABASE_URL is required');
  });

  it('uses the direct address of a database that the services reach through PgBouncer', () => {
    const env: Record<string, string> = Object.fromEntries(
      SERVICE_DATABASES.map((d) => [d.env, `postgresql://u@pgbouncer:6432/${d.service}?pgbouncer=true`]),
    );
    env.MESSAGING_DIRECT_DATABASE_URL = 'postgresql://u@postgres:5432/messaging';
    expect(databaseUrls(env).map((d) => [d.service, d.url])).toEqual([
      ['settings', 'postgresql://u@pgbouncer:6432/settings'],
      ['messaging', 'postgresql://u@postgres:5432/messaging'],
      ['groups', 'postgresql://u@pgbouncer:6432/groups'],
      ['invitations', 'postgresql://u@pgbouncer:6432/invitations'],
      ['push', 'postgresql://u@pgbouncer:6432/push'],
    ]);
  });

  it('runs the PostgreSQL client of CONFAB_PG_BIN when set, else the one on PATH', () => {
    expect(toolPath('pg_dump', {})).toBe('pg_dump');
    expect(toolPath('pg_restore', { CONFAB_PG_BIN: '/usr/lib/postgresql/17/bin/' })).toBe(
      '/usr/lib/postgresql/17/bin/pg_restore',
    );
    expect(toolPath('tar', { CONFAB_PG_BIN: '/usr/lib/postgresql/17/bin' })).toBe('tar');
  });

  it("gives pg_dump URLs without Prisma's parameters, and leaves other URLs as they are", () => {
    expect(libpqUrl('postgresql://u@db:6432/x?pgbouncer=true&connection_limit=5&sslmode=require')).toBe(
      'postgresql://u@db:6432/x?sslmode=require',
    );
    const socket = 'postgresql://postgres@localhost/x?host=/var/run/postgresql';
    expect(libpqUrl(socket)).toBe(socket);
  });

  it('finds the uploads and emoji trees where the services keep them', () => {
    expect(() => dataTrees({})).toThrow('CONFAB_DATA_DIR is required');
    expect(dataTrees({ CONFAB_DATA_DIR: '/data' })).toEqual([
      { name: 'uploads', dir: '/data/uploads' },
      { name: 'emoji', dir: '/data/emoji' },
    ]);
    expect(dataTrees({ CONFAB_DATA_DIR: '/data', MESSAGING_UPLOADS_DIR: '/srv/up' })[0]!.dir).toBe('/srv/up');
  });
});
