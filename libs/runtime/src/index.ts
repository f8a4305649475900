/**
 * What every service process starts with besides its event plumbing (`ServiceEvents` of @confab/events) and its
 * process life cycle (`runProcess` of @confab/http): its database client, its Redis connections and its job queues' options.
 */
export { isUniqueViolation, openPrisma, pingDatabase } from './database.js';
export { connectRedis, openRedis, type RedisClient, type RedisTarget } from './redis.js';
export { bullOptions, closeBullConnections } from './jobs.js';
export { ReplicaForgets } from './forgets.js';
export { ServiceRuntime, type RuntimeConfig } from './service.js';
export { retryInBackground } from './retry.js';
export {
  createMailer,
  dataDirOf,
  mailConfig,
  mailConfigured,
  mailEnv,
  type ClosableMailer,
  type MailConfig,
  type Mailer,
  type OutgoingMail,
} from './mail.js';
