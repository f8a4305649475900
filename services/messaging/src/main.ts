import { Queue } from 'bullmq';
import { listen, runProcess } from '@confab/http';
import { bullOptions } from '@confab/runtime';
import { MAINTENANCE_QUEUE } from './jobs/catalog.js';
import { exportRunner } from './jobs/realm-export.js';
import { ServiceRuntime } from '@confab/runtime';
import { CausalLog } from '@confab/events';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { buildDomain } from './domain-factory.js';
import type { MessagingDeps } from './deps.js';
import { registerConsumers } from './events/consumers.js';
import { subscribeNewMember } from './domain/default-channels.js';
import { COMPLETED_IN_SQL } from './repositories/send-sql.js';
import { BullDeliveryQueue } from './jobs/scheduled-delivery.js';
import { WebhookPeopleRepository } from './repositories/webhook-people.repository.js';
import { RedisOwnerReminders } from './repositories/owner-reminders.redis.js';

runProcess('messaging', loadConfig, async (config, logger) => {
  const runtime = new ServiceRuntime(config, logger);
  const events = runtime.publisher(COMPLETED_IN_SQL);
  // What one replica forgets of its caches, every replica (and the worker) forgets (docs/architecture.md "Replicas").
  const forgets = runtime.replicaForgets('messaging');
  const { domain, db, store, readModel, directory, prisma, backfill, close } = buildDomain(
    config,
    logger,
    events.kick,
    forgets,
  );
  runtime.closeWithDatabase('database', close);
  store.useBroker(events.bus);
  registerConsumers({
    bus: events.bus,
    store,
    readModel,
    directory,
    onNewMember: (tx, realm, user, requestId) => subscribeNewMember(domain, db.storeIn(tx), realm, user, requestId),
  });
  const deliveries = BullDeliveryQueue.open(config.redis, logger);
  const maintenance = new Queue(MAINTENANCE_QUEUE, bullOptions(config.redis));
  maintenance.on('error', (err: Error) => logger.warn({ err: err.message }, 'maintenance queue error'));
  const applied = events.causalGate(prisma, config.causalWaitMs);
  // What the people an action reaches changed a moment ago counts too (e.g. typing notifications just turned off).
  const redis = runtime.redis();
  const causalLog = new CausalLog(redis, config.redis.prefix);
  domain.othersChanges = {
    async settle(realmId, userIds) {
      const recent = await causalLog.recent(userIds);
      if (recent.length === 0) return;
      const outcome = await applied(recent);
      if (outcome.appliedElsewhere) directory.forgetPeopleOf(realmId);
    },
  };
  const deps: MessagingDeps = {
    config,
    logger,
    domain,
    store,
    bus: events.bus,
    relay: events.relay,
    verifier: runtime.verifier,
    deliveries,
    exportRunner: exportRunner(maintenance, config),
    ownerReminders: new RedisOwnerReminders(redis, config.redis.prefix),
    webhookPeople: new WebhookPeopleRepository(store),
    causal: {
      async caughtUp(identity) {
        const outcome = await applied(identity.causal);
        if (outcome.appliedElsewhere) directory.forgetPeopleOf(identity.realmId);
        return outcome.caughtUp;
      },
    },
  };
  await backfill
    .fillIfEmpty()
    .catch((err: unknown) => logger.warn({ err }, 'backfill from settings failed; events will fill the read model'));
  await forgets.start();
  await events.start();
  const server = await listen(buildApp(deps), config.port, config.bindHost);
  logger.info({ port: server.port }, 'messaging service listening');
  return [
    ['http', () => server.close()],
    ['delivery queue', () => deliveries.close()],
    ['maintenance queue', () => maintenance.close()],
    ...runtime.shutdown(),
  ];
});
