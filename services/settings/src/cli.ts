import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfabError } from '@confab/errors';
import { ROLE_ADMINISTRATOR, ROLE_GUEST, ROLE_MEMBER, ROLE_MODERATOR, ROLE_OWNER } from '@confab/identity';
import { generateApiKey, hashApiKey } from './domain/credentials.js';
import {
  createDevOrganization,
  createRealm,
  createUsers,
  DEV_PASSWORD_DEFAULT,
  type ProvisioningContext,
} from './domain/provisioning.js';
import type { Role } from './domain/types.js';
import { backup } from './operations/backup.js';
import { restore } from './operations/restore.js';
import { EXPORT_TYPES, exportCommand, importCommand, summaryLines } from './operations/import-command.js';
import { PrismaDatabase } from './repositories/database.js';
import { createPrisma } from './repositories/prisma.js';
import { createLogger } from '@confab/logging';
import { openRedis } from '@confab/runtime';
import { loadConfig } from './config.js';
import { DirectoryImageFiles } from './adapters/image-files.js';
import { SharpImageResizer } from './adapters/image-resizer.js';
import { runLdapSync } from './jobs/ldap-sync.js';
import { RedisPresenceStore } from './repositories/presence.redis.js';
import { buildSsoServices } from './sso-wiring.js';

const HELP = `Confab admin CLI (settings service). Uses SETTINGS_DATABASE_URL; the running service publishes the events.

  create-realm --subdomain <s> --name <name> [--jwt-key <key>]     ('' is the default organization)
  create-user  --realm <s> --email <e> --name <name> [--role member] [--password <p>]
  create-bot   --realm <s> --email <e> --name <name> --owner <owner email>
  api-key      --realm <s> --email <e>                               (issues an additional API key)
  dev-org      [--password <p>] [--jwt-key <key>]                    (the development organization, if absent)
  backup       --out <file.tar> [--settle-ms 2000]                   (every service's database and the data volume)
  restore      --from <file.tar>                                     (into an empty deployment, before it starts)
  sync-ldap    [--realm <s>]                                         (one pass of the LDAP directory sync now)
  import       --source slack|mattermost|zulip --from <dir|.zip|.tar.gz> --subdomain <s>
               [--slack-users <users.list answer.json>] [--slack-emoji <emoji.list answer.json>]
               [--team <Mattermost team>] [--work-dir <dir>]
               [--max-bytes <n>] [--max-file-bytes <n>] [--max-ratio <n>]    (a new organization from an export)
  export       --realm <s> --out <file.tar.gz> [--type public|consent|full] [--zulip-migration-status <file>]
               (the organization in Zulip's export format; needs the deployment running)
  archive-messages [--realm <s>] [--now <ISO time>]   (the daily retention run now, or "at" a given time)
  restore-archived --realm <s> [--channel <name>]     (archived retention batches back, before they are purged)
  export-search --realm <s> [--keyword <k>]... [--sender <email>]... [--recipient <email>]...
               [--start <ISO time>] [--end <ISO time>] [--format json|csv] [--output <file>] [--force]
               [--write-attachments <dir>]
               (messages matching the search, for legal requests; Zulip's export_search)

backup and restore read every service's *_DATABASE_URL (direct to PostgreSQL, not through PgBouncer) and
CONFAB_DATA_DIR, and run pg_dump, pg_restore and tar (docs/architecture.md, "Backup and restore"). import reads the
same, REDIS_URL, CONFAB_EXTERNAL_URL and CONFAB_OUTGOING_ALLOWED_CIDRS (for the images a Slack export names by URL),
and runs each service's part in a process of its own (docs/architecture.md, "Moving organizations in and out").

Roles: owner, administrator, moderator, member, guest. API keys are printed once; only their hash is stored.`;

const ROLES: Record<string, Role> = {
  owner: ROLE_OWNER,
  administrator: ROLE_ADMINISTRATOR,
  moderator: ROLE_MODERATOR,
  member: ROLE_MEMBER,
  guest: ROLE_GUEST,
};

/** Commands on messaging's data: run by messaging's own CLI with this environment (no database read across services). */
const MESSAGING_COMMANDS = new Set(['archive-messages', 'restore-archived', 'export-search']);

function messagingCommand(command: string, args: string[]): Promise<number> {
  const cli = join(__dirname, '../../messaging/dist/operations/retention-cli.js');
  const child = spawn(process.execPath, [cli, command, ...args], { stdio: 'inherit', env: process.env });
  return new Promise((ok) => child.on('exit', (code: number | null) => ok(code ?? 1)));
}

function required(values: Record<string, string | undefined>, name: string): string {
  const value = values[name];
  if (value === undefined) throw new Error(`--${name} is required`);
  return value;
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (!command || command === '--help' || command === 'help') {
    console.log(HELP);
    return;
  }
  if (MESSAGING_COMMANDS.has(command)) {
    process.exitCode = await messagingCommand(command, rest);
    return;
  }
  const { values } = parseArgs({
    args: rest,
    options: {
      subdomain: { type: 'string' },
      realm: { type: 'string' },
      name: { type: 'string' },
      email: { type: 'string' },
      role: { type: 'string' },
      password: { type: 'string' },
      owner: { type: 'string' },
      'jwt-key': { type: 'string' },
      out: { type: 'string' },
      from: { type: 'string' },
      'settle-ms': { type: 'string' },
      source: { type: 'string' },
      'slack-users': { type: 'string' },
      'slack-emoji': { type: 'string' },
      team: { type: 'string' },
      'work-dir': { type: 'string' },
      'max-bytes': { type: 'string' },
      'max-file-bytes': { type: 'string' },
      'max-ratio': { type: 'string' },
      type: { type: 'string' },
      'zulip-migration-status': { type: 'string' },
    },
  });
  const log = (line: string) => console.log(`[${new Date().toISOString()}] ${line}`);
  if (command === 'backup') {
    const settle = values['settle-ms'];
    if (settle !== undefined && !/^\d+$/.test(settle)) throw new Error('--settle-ms takes a number of milliseconds');
    await backup({
      out: required(values, 'out'),
      env: process.env,
      settleMs: settle === undefined ? undefined : Number(settle),
      log,
    });
    return;
  }
  if (command === 'import') {
    const source = required(values, 'source');
    if (source !== 'slack' && source !== 'mattermost' && source !== 'zulip')
      throw new Error('--source is one of slack, mattermost, zulip');
    const number = (name: string) => {
      const value = (values as Record<string, string | undefined>)[name];
      if (value === undefined) return undefined;
      if (!/^\d+$/.test(value)) throw new Error(`--${name} takes a number`);
      return Number(value);
    };
    const limits = Object.fromEntries(
      [
        ['maxTotalBytes', number('max-bytes')],
        ['maxFileBytes', number('max-file-bytes')],
        ['maxRatio', number('max-ratio')],
      ].filter(([, v]) => v !== undefined),
    ) as Record<string, number>;
    const summary = await importCommand({
      source,
      from: required(values, 'from'),
      subdomain: required(values, 'subdomain'),
      env: process.env,
      slackUsers: values['slack-users'],
      slackEmoji: values['slack-emoji'],
      team: values.team,
      workDir: values['work-dir'],
      limits,
      log,
      out: process.stdout,
    });
    for (const line of summaryLines(summary, process.env.CONFAB_EXTERNAL_URL ?? 'http://127.0.0.1:9991'))
      console.log(line);
    return;
  }
  if (command === 'restore') {
    await restore({ from: required(values, 'from'), env: process.env, log });
    return;
  }
  if (command === 'sync-ldap') {
    await syncLdapNow(values.realm);
    return;
  }
  const url = process.env.SETTINGS_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/confab_settings';
  const prisma = createPrisma(url, 2);
  const db = new PrismaDatabase(prisma);
  const ctx: ProvisioningContext = {
    db,
    externalUrl: process.env.CONFAB_EXTERNAL_URL ?? 'http://127.0.0.1:9991',
    passwordHashCost: 15,
  };
  const realmOf = async (subdomain: string) => {
    const realm = await db.store.realms.byStringId(subdomain);
    if (!realm) throw new Error(`no organization with subdomain '${subdomain}'`);
    return realm;
  };
  try {
    switch (command) {
      case 'create-realm': {
        const realm = await createRealm(ctx, {
          stringId: required(values, 'subdomain'),
          name: required(values, 'name'),
          jwtKey: values['jwt-key'] ?? null,
        });
        console.log(JSON.stringify({ realm_id: realm.id, subdomain: realm.stringId }));
        break;
      }
      case 'create-user':
      case 'create-bot': {
        const realm = await realmOf(required(values, 'realm'));
        const role = ROLES[values.role ?? 'member'];
        if (!role) throw new Error(`unknown role ${values.role}`);
        const [created] = await createUsers(ctx, realm, [
          {
            email: required(values, 'email'),
            fullName: required(values, 'name'),
            role,
            password: command === 'create-user' ? (values.password ?? null) : null,
            bot: command === 'create-bot' ? { ownerEmail: required(values, 'owner') } : undefined,
          },
        ]);
        console.log(
          JSON.stringify({ user_id: created!.user.id, email: created!.user.email, api_key: created!.apiKey }),
        );
        break;
      }
      case 'api-key': {
        const realm = await realmOf(required(values, 'realm'));
        const user = await db.store.users.byEmail(realm.id, required(values, 'email'));
        if (!user) throw new Error('no such user');
        const fresh = generateApiKey();
        const key = await db.store.users.ensureApiKey(user.id, fresh, hashApiKey(fresh));
        console.log(JSON.stringify({ user_id: user.id, email: user.email, api_key: key }));
        break;
      }
      case 'export': {
        const realm = await realmOf(required(values, 'realm'));
        const type = EXPORT_TYPES[values.type ?? 'full'];
        if (!type) throw new Error('--type is one of public, consent, full');
        console.log(
          await exportCommand({
            realmId: realm.id,
            type,
            out: required(values, 'out'),
            env: process.env,
            migrationStatus: values['zulip-migration-status'],
          }),
        );
        break;
      }
      case 'dev-org': {
        const created = await createDevOrganization(ctx, {
          stringId: '',
          password: values.password ?? DEV_PASSWORD_DEFAULT,
          jwtKey: values['jwt-key'] ?? null,
        });
        if (!created) console.log('The default organization already exists.');
        else for (const { user, apiKey } of created.users) console.log(`${user.email.padEnd(26)} ${apiKey}`);
        break;
      }
      default:
        throw new Error(`unknown command ${command}\n\n${HELP}`);
    }
  } finally {
    await prisma.$disconnect();
  }
}

/**
 * `sync-ldap`: one pass of the directory sync with the service's own configuration (the same environment as the
 * settings service: its database, Redis and CONFAB_LDAP_*); the events it writes are published by the running service.
 */
async function syncLdapNow(subdomain: string | undefined): Promise<void> {
  const config = loadConfig();
  if (!config.sso.ldap) throw new Error('CONFAB_LDAP_URL is not set: no directory to sync with');
  const logger = createLogger({ name: 'sync-ldap', level: config.logLevel, to: 'stderr' });
  const prisma = createPrisma(config.db.url, 2);
  const redis = openRedis(config.redis, logger);
  try {
    const db = new PrismaDatabase(prisma);
    let only: { realmId: number } | undefined;
    if (subdomain !== undefined) {
      const realm = await db.store.realms.byStringId(subdomain);
      if (!realm) throw new Error(`no organization with subdomain '${subdomain}'`);
      only = { realmId: realm.id };
    }
    const report = await runLdapSync(
      {
        db,
        config,
        presence: new RedisPresenceStore(redis, config.redis.prefix, config.presenceRetentionSeconds),
        sso: buildSsoServices(config, redis, logger),
        // The directory's photos become avatars: stored where the running service serves them from.
        images: new DirectoryImageFiles(config.avatarDir),
        resizer: new SharpImageResizer(),
      },
      logger,
      only,
    );
    console.log(JSON.stringify(report));
  } finally {
    await prisma.$disconnect();
    await redis.quit();
  }
}

main().catch((err: unknown) => {
  const message = err instanceof ConfabError || err instanceof Error ? err.message : String(err);
  console.error(process.argv[2] === 'import' ? `Import failed, nothing was imported: ${message}` : message);
  process.exit(1);
});
