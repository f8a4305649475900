import { readFile } from 'node:fs/promises';
import { loadConfig } from '../config.js';
import { writeRealmExport } from '../jobs/realm-export.js';
import { openDatabase } from '../repositories/database.js';
import { Store } from '../repositories/store.js';

// `npm run admin -- export`: the admin CLI runs this with messaging's environment; it writes the organization's
// export in Zulip's format as the export job does (asking the running settings and groups services for their parts).
//   node export-cli.js <realm id> <export type 1|2|3> <out.tar.gz> [<migration_status.json>]
async function main(): Promise<void> {
  const [realm, type, out, migrationFile] = process.argv.slice(2);
  if (!realm || !type || !out)
    throw new Error('usage: export-cli.js <realm id> <export type> <out> [<migration status>]');
  const config = loadConfig();
  const { prisma, sql, close } = openDatabase(config.db.url, 2);
  try {
    const migrationStatus = migrationFile ? (JSON.parse(await readFile(migrationFile, 'utf8')) as unknown) : undefined;
    const stats = await writeRealmExport({ store: new Store(prisma, sql), config }, Number(realm), Number(type), out, {
      migrationStatus,
    });
    console.log(JSON.stringify({ messages: stats.messages, out }));
  } finally {
    await close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
