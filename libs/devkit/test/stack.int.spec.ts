import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { LOCAL_DEFAULTS, localPostgresUrl, Stack } from '@confab/devkit';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('Stack.start', () => {
  it('stops every process it started and drops the run databases when one process fails to start', async () => {
    const runId = `stackfail${randomBytes(3).toString('hex')}`;
    const postgresUrl = process.env.DATABASE_URL ?? localPostgresUrl();
    const stack = new Stack({
      infra: {
        kind: 'local',
        postgresUrl,
        redisUrl: process.env.REDIS_URL ?? LOCAL_DEFAULTS.redisUrl,
        amqpUrl: process.env.AMQP_URL ?? LOCAL_DEFAULTS.amqpUrl,
        stop: async () => undefined,
      },
      runId,
      ports: 'random',
      logDir: join(tmpdir(), 'confab-stack-test', runId),
      // Only the events service reads this setting, and it refuses the value: every other process starts.
      env: { EVENTS_HEARTBEAT_SECONDS: 'not-a-number' },
    });

    await expect(stack.start()).rejects.toThrow(/events exited during start-up/);

    const started = Object.values(stack.describeProcesses());
    expect(started.map((p) => p.name)).toEqual(expect.arrayContaining(['settings', 'messaging', 'events']));
    expect(started.filter((p) => p.pid > 0 && alive(p.pid)).map((p) => p.name)).toEqual([]);

    const pg = new Client({ connectionString: postgresUrl });
    await pg.connect();
    try {
      const { rows } = await pg.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [
        `%${runId}%`,
      ]);
      expect(rows).toEqual([]);
    } finally {
      await pg.end();
    }
  }, 180_000);
});
