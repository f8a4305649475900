import { listen, listenChannel, runProcess } from '@confab/http';
import { retireConsumersInBackground } from '@confab/events';
import { ServiceRuntime } from '@confab/runtime';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { EventsDeps } from './deps.js';
import { registerConsumers, RETIRED_CONSUMERS } from './events/consumers.js';
import { Fanout } from './events/fanout.js';
import { Admission } from './domain/admission.js';
import { HttpStateProviders } from './state/providers.js';
import { QueueStore } from './store/queues.js';
import { ReadModel } from './store/readmodel.js';
import { Wakeups } from './store/wakeups.js';

runProcess('events', loadConfig, async (config, logger) => {
  const runtime = new ServiceRuntime(config, logger);
  // Auto-pipelining batches the many concurrent reads of polls woken together into few round trips.
  const redis = runtime.redis({ enableAutoPipelining: true });
  // Subscribed connections cannot run other commands: wake-ups listen on their own.
  const subscriber = runtime.redis({ maxRetriesPerRequest: null });
  // Every key of the events store shares one Redis Cluster slot: its scripts use many queues and indexes at once.
  const prefix = `${config.redis.prefix}:{events}:`;
  const store = new QueueStore(redis, prefix, config.queueTimeoutSeconds * 1000);
  const forgets = runtime.replicaForgets('events');
  const readModel = new ReadModel(redis, prefix, forgets);
  const wakeups = new Wakeups(redis, subscriber, `${prefix}wake`, logger);
  const events = runtime.consumer();
  const fanout = new Fanout(store, readModel, config.dedupeTtlSeconds, logger);
  registerConsumers({ bus: events.bus, fanout, readModel, prefetch: config.prefetch });
  const deps: EventsDeps = {
    config,
    logger,
    redis,
    bus: events.bus,
    verifier: runtime.verifier,
    store,
    readModel,
    wakeups,
    providers: new HttpStateProviders(config.stateProviders, config.internalSecret, config.stateTimeoutMs, logger),
    registers: new Admission(config.registers.concurrency, config.registers.waitMs),
    heartbeat: config.heartbeat,
    longpollTimeoutSeconds: config.longpollTimeoutSeconds,
    maxQueuesPerUser: config.maxQueuesPerUser,
  };
  await forgets.start();
  await wakeups.start();
  await events.start();
  retireConsumersInBackground(config.amqp, RETIRED_CONSUMERS, logger);
  const app = buildApp(deps);
  // The gateway's channel first: once the HTTP port answers readiness, the gateway may connect to either.
  const channel = await listenChannel(app.channel, config.channelPort, config.bindHost, logger);
  const server = await listen(app, config.port, config.bindHost);
  logger.info({ port: server.port, channelPort: channel.port }, 'events service listening');
  return [
    // Open long polls answer first, so their clients come back through another replica.
    ['long polls', async () => wakeups.close()],
    // Both drain side by side: gateways close their channel connections once their polls are answered.
    ['channel and http', async () => void (await Promise.all([channel.close(), server.close()]))],
    ...runtime.shutdown(),
  ];
});
