import { CausalLog, retireConsumersInBackground } from '@confab/events';
import { listen, runProcess } from '@confab/http';
import { createMailer, ServiceRuntime } from '@confab/runtime';
import { DirectoryImageFiles } from './adapters/image-files.js';
import { SharpImageResizer } from './adapters/image-resizer.js';
import { GroupsClient } from './adapters/groups-client.js';
import { MessagingClient } from './adapters/messaging-client.js';
import { buildApp } from './app.js';
import { ensureSystemBots } from './domain/system-bots.js';
import { backfillSystemGroups } from './domain/system-groups.js';
import { registerConsumers, RETIRED_CONSUMERS } from './events/consumers.js';
import { loadConfig } from './config.js';
import type { SettingsDeps } from './deps.js';
import { RedisFailureLimiter } from './repositories/auth-failures.js';
import { PrismaDatabase } from './repositories/database.js';
import { SqlOwnUserRead } from './repositories/own-user.sql.js';
import { RedisPresenceStore } from './repositories/presence.redis.js';
import { createPrisma } from './repositories/prisma.js';
import { buildMeetingProvider } from './wiring.js';
import { startLdapSync } from './jobs/ldap-sync.js';
import { buildSsoServices } from './sso-wiring.js';
import { PeopleCache } from './domain/people-cache.js';

runProcess('settings', loadConfig, async (config, logger) => {
  const runtime = new ServiceRuntime(config, logger);
  const prisma = runtime.database(createPrisma);
  const redis = runtime.redis();
  const events = runtime.publisher();
  // GET /users/me on plain pg (a few connections beside Prisma's pool): the read every client makes.
  const ownUserRead = new SqlOwnUserRead(config.db.url, Math.max(2, Math.ceil(config.db.poolSize / 4)));
  runtime.closeWithDatabase('own-user read', () => ownUserRead.end());
  const db = new PrismaDatabase(prisma, events.kick, ownUserRead);
  const causalLog = new CausalLog(redis, config.redis.prefix);
  const mailer = await createMailer(config.mail, logger);
  const limiter = (allowed: number, windowSeconds: number, name?: string) =>
    new RedisFailureLimiter(redis, config.redis.prefix, allowed, windowSeconds, name);
  const deps: SettingsDeps = {
    config,
    logger,
    db,
    presence: new RedisPresenceStore(redis, config.redis.prefix, config.presenceRetentionSeconds),
    files: new DirectoryImageFiles(config.emojiDir),
    images: new DirectoryImageFiles(config.avatarDir),
    resizer: new SharpImageResizer(),
    redis,
    bus: events.bus,
    relay: events.relay,
    verifier: runtime.verifier,
    failures: limiter(config.authFailures.allowed, config.authFailures.windowSeconds),
    emailChangeLimiter: limiter(config.emailChangeLimit.allowed, config.emailChangeLimit.windowSeconds, 'emailchange'),
    mailer,
    groups: new GroupsClient(config.groupsUrl, config.internalSecret),
    messages: new MessagingClient(config.messagingUrl, config.internalSecret),
    meetings: buildMeetingProvider(config, db, logger),
    people: new PeopleCache(),
    causal: {
      record: (userId, events) => causalLog.record(userId, events),
      recordRealm: (realmId, events) => causalLog.recordRealm(realmId, events),
    },
    sso: buildSsoServices(config, redis, logger),
  };
  registerConsumers(events.bus, db);
  await events.start();
  retireConsumersInBackground(config.amqp, RETIRED_CONSUMERS, logger);
  await ensureSystemBots(db, logger);
  backfillSystemGroups(db, deps.groups, logger).catch((err: unknown) =>
    logger.warn({ err }, 'system groups backfill failed; group settings are sent as member lists until events arrive'),
  );
  const ldapSync = await startLdapSync(deps, logger);
  const server = await listen(buildApp(deps), config.port, config.bindHost);
  logger.info(
    { port: server.port, meeting_provider: config.meetings.provider || 'none' },
    'settings service listening',
  );
  return [['http', () => server.close()], ...ldapSync, ['mail', () => mailer.close()], ...runtime.shutdown()];
});
