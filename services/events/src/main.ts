import { EventBus } from '@confab/events';
import { closeOnSignals, exitOnStartupFailure, listen } from '@confab/http';
import { IdentityVerifier } from '@confab/identity';
import { createLogger, type Logger } from '@confab/logging';
import { Redis } from 'ioredis';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { EventsDeps } from './deps.js';
import { registerConsumers } from './events/consumers.js';
import { Fanout } from './events/fanout.js';
import { HttpStateProviders } from './state/providers.js';
import { QueueStore } from './store/queues.js';
import { ReadModel } from './store/readmodel.js';
import { Wakeups } from './store/wakeups.js';

async function main(): Promise<void> {
  let logger: Logger | undefined;
  try {
    const config = loadConfig();
    logger = createLogger({ name: 'events', level: config.logLevel });
    const log = logger;
    // Auto-pipelining batches the many concurrent reads of polls woken together into few round trips.
    const redis = new Redis(config.redis.url, { maxRetriesPerRequest: 2, enableAutoPipelining: true });
    // Subscribed connections cannot run other commands: wake-ups listen on their own.
    const subscriber = new Redis(config.redis.url, { maxRetriesPerRequest: null });
    for (const r of [redis, subscriber]) r.on('error', (err: Error) => log.warn({ err: err.message }, 'redis error'));
    const prefix = `${config.redis.prefix}:events:`;
    const store = new QueueStore(redis, prefix, config.queueTimeoutSeconds * 1000);
    const readModel = new ReadModel(redis, prefix);
    const wakeups = new Wakeups(redis, subscriber, `${prefix}wake`, logger);
    const bus = new EventBus({
      url: config.amqp.url,
      exchange: config.amqp.exchange,
      logger,
      queueExpiresMs: config.queueExpiresMs,
    });
    const fanout = new Fanout(store, readModel, config.dedupeTtlSeconds, logger);
    registerConsumers({ bus, fanout, readModel, prefetch: config.prefetch });
    const deps: EventsDeps = {
      config,
      logger,
      redis,
      bus,
      verifier: new IdentityVerifier(config.internalSecret),
      store,
      readModel,
      wakeups,
      providers: new HttpStateProviders(config.stateProviders, config.internalSecret, config.stateTimeoutMs, logger),
      heartbeat: config.heartbeat,
      longpollTimeoutSeconds: config.longpollTimeoutSeconds,
    };
    await wakeups.start();
    await bus.start();
    const server = await listen(buildApp(deps), config.port);
    logger.info({ port: server.port }, 'events service listening');
    closeOnSignals(logger, [
      // Open long polls answer first, so their clients come back through another replica.
      ['long polls', async () => wakeups.close()],
      ['http', () => server.close()],
      ['event bus', () => bus.close()],
      ['redis', () => Promise.all([redis.quit(), subscriber.quit()])],
    ]);
  } catch (err) {
    exitOnStartupFailure(logger, err);
  }
}

void main();
