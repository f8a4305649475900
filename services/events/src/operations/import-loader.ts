import { redisSettings } from '@confab/config';
import { serveLoader } from '@confab/porting';
import { connectRedis } from '@confab/runtime';
import { EventsImportLoader } from './import.js';

// The events service's import part as a process of its own (libs/porting's loader protocol); it sees only the
// deployment's Redis, where its read model lives beside the event queues.
const settings = redisSettings(
  process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  process.env.CONFAB_REDIS_PREFIX ?? 'confab',
  process.env.CONFAB_REDIS_CLUSTER === 'true',
);
serveLoader(new EventsImportLoader(connectRedis(settings), `${settings.prefix}:{events}:`));
