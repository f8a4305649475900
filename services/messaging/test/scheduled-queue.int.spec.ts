import { eachRedis, type TestRedis } from '@confab/devkit';
import { createLogger } from '@confab/logging';
import { closeBullConnections } from '@confab/runtime';
import { BullDeliveryQueue, jobIdOf } from '../src/jobs/scheduled-delivery';

const logger = createLogger({ name: 'test', level: 'silent' });
const prefix = `scheduled-queue-test-${process.pid}-${Date.now()}`;
let queue: BullDeliveryQueue;
const connect = (target: TestRedis) => {
  queue = BullDeliveryQueue.open({ ...target, prefix }, logger);
  return {
    quit: async () => {
      await queue.queue.obliterate({ force: true });
      await queue.close();
      await closeBullConnections();
    },
  };
};

/** The delivery queue on the real Redis: one delayed job per delivery time, whatever the number of messages. */
eachRedis({ describe, beforeAll, afterAll }, { prefix, connect }, () =>
  describe('scheduled delivery queue (BullMQ on Redis)', () => {
    it('gives the messages due at one time one job, delayed until then, and another time its own', async () => {
      const at = new Date(Date.now() + 60_000);
      const later = new Date(at.getTime() + 1000);
      const before = Date.now();
      await queue.schedule(at);
      await queue.schedule(at);
      await queue.schedule(later);
      const delayed = await queue.queue.getDelayed();
      const after = Date.now();
      expect(delayed.map((job) => [job.id, job.data.dueAt]).sort()).toEqual([
        [jobIdOf(at), at.getTime()],
        [jobIdOf(later), later.getTime()],
      ]);
      const job = delayed.find((j) => j.id === jobIdOf(at))!;
      // Due at the time, never before it; BullMQ stamps the job a moment after its delay was computed, so it may
      // be due later by at most the time the calls took (a bound of this run, not a fixed number).
      const lateBy = job.timestamp + job.delay - at.getTime();
      expect(lateBy).toBeGreaterThanOrEqual(0);
      expect(lateBy).toBeLessThanOrEqual(after - before);
    });
  }),
);
