import {
  createWorld,
  privatePostgres,
  type PrivateServer,
  type Stack,
  type StackInfo,
  type World,
} from '@confab/devkit';
import { eventually, readiness, startFaultStack } from './stack';

describe('PostgreSQL restarted', () => {
  let pg: PrivateServer;
  let stack: Stack;
  let info: StackInfo;
  let world: World;

  beforeAll(async () => {
    pg = await privatePostgres();
    ({ stack, info } = await startFaultStack({ postgresUrl: pg.url }));
    world = await createWorld(info);
  }, 180_000);

  afterAll(async () => {
    await stack?.stop({ cleanUp: false });
    await pg?.destroy();
  });

  const databaseServices = () => Object.keys(info.databases);

  it('makes services report not ready, answers requests with a clean 503, and recovers by itself', async () => {
    expect((await world.as('hamlet').get('/users/me')).status).toBe(200);
    await pg.stop();
    for (const service of databaseServices()) {
      const state = await eventually(
        () => readiness(info.serviceUrls[service]!),
        (r) => r.status === 503,
        15_000,
      );
      expect({ service, database: state.checks.database }).toEqual({ service, database: false });
    }
    const during = await world.as('hamlet').get('/users/me');
    expect({ status: during.status, code: during.body.code }).toEqual({ status: 503, code: 'SERVICE_UNAVAILABLE' });

    await pg.start();
    for (const service of databaseServices()) {
      await eventually(
        () => readiness(info.serviceUrls[service]!),
        (r) => r.status === 200,
        30_000,
      );
    }
    expect((await world.as('hamlet').get('/users/me')).status).toBe(200);
    // Writes and their events flow again: a new organization is created and known to every service.
    const fresh = await createWorld(info);
    expect((await fresh.as('iago').get('/user_groups')).status).toBe(200);
  }, 120_000);
});
