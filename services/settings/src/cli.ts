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
import { PrismaDatabase } from './repositories/database.js';
import { createPrisma } from './repositories/prisma.js';

const HELP = `Confab admin CLI (settings service). Uses SETTINGS_DATABASE_URL; the running service publishes the events.

  create-realm --subdomain <s> --name <name> [--jwt-key <key>]     ('' is the default organization)
  create-user  --realm <s> --email <e> --name <name> [--role member] [--password <p>]
  create-bot   --realm <s> --email <e> --name <name> --owner <owner email>
  api-key      --realm <s> --email <e>                               (issues an additional API key)
  dev-org      [--password <p>] [--jwt-key <key>]                    (the development organization, if absent)
  backup       --out <file.tar> [--settle-ms 2000]                   (every service's database and the data volume)
  restore      --from <file.tar>                                     (into an empty deployment, before it starts)

backup and restore read every service's *_DATABASE_URL (direct to PostgreSQL, not through PgBouncer) and
CONFAB_DATA_DIR, and run pg_dump, pg_restore and tar (docs/architecture.md, "Backup and restore").

Roles: owner, administrator, moderator, member, guest. API keys are printed once; only their hash is stored.`;

const ROLES: Record<string, Role> = {
  owner: ROLE_OWNER,
  administrator: ROLE_ADMINISTRATOR,
  moderator: ROLE_MODERATOR,
  member: ROLE_MEMBER,
  guest: ROLE_GUEST,
};

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
  if (command === 'restore') {
    await restore({ from: required(values, 'from'), env: process.env, log });
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

main().catch((err: unknown) => {
  console.error(err instanceof ConfabError || err instanceof Error ? err.message : err);
  process.exit(1);
});
