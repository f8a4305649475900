import { databaseServices } from '@confab/devkit';
import { databaseUrls, dataTrees, libpqUrl, SERVICE_DATABASES } from '../src/operations/tools';

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
