import { createHash, randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { Redis } from 'ioredis';
import { LOCAL_DEFAULTS, serviceDatabase } from '@confab/devkit';
import { ConfabError } from '@confab/errors';
import { contracts, parseEnvelope } from '@confab/events';
import { authenticateApiKey, fetchApiKeyByJwt, fetchApiKeyByPassword } from '../src/domain/auth';
import { createDevOrganization, createUsers, type ProvisioningContext } from '../src/domain/provisioning';
import { RedisFailureLimiter } from '../src/repositories/auth-failures';
import { PrismaDatabase } from '../src/repositories/database';
import { createPrisma, type Db } from '../src/repositories/prisma';

let database: { url: string; drop: () => Promise<void> };
const JWT_KEY = 'integration-test-jwt-key';

async function refusal(promise: Promise<unknown>): Promise<{ status: number; code: string; msg: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof ConfabError) return { status: err.status, code: err.code, msg: err.message };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('settings credentials against PostgreSQL and Redis', () => {
  let prisma: Db;
  let db: PrismaDatabase;
  let redis: Redis;
  let ctx: ProvisioningContext;
  const prefix = `confab-test-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    database = await serviceDatabase('settings', 'credentials');
    const url = database.url;
    prisma = createPrisma(url, 2);
    db = new PrismaDatabase(prisma);
    redis = new Redis(process.env.REDIS_URL ?? LOCAL_DEFAULTS.redisUrl);
    ctx = { db, externalUrl: 'http://localhost:9991', passwordHashCost: 10 };
    await createDevOrganization(ctx, { stringId: '', password: 'secret-pass', jwtKey: JWT_KEY });
  });

  afterAll(async () => {
    await prisma.$disconnect();
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await database.drop();
  });

  const limiter = () => new RedisFailureLimiter(redis, prefix, 3, 60);
  const realm = async () => (await db.store.realms.byStringId(''))!;

  it('writes realm.created and one user.created per account to the outbox, each valid against its contract', async () => {
    const rows = await prisma.outbox.findMany({ orderBy: { id: 'asc' } });
    // The organization's Notification Bot comes with it, then its accounts.
    expect(rows.map((r) => r.routingKey)).toEqual(['realm.created', ...Array(11).fill('user.created')]);
    const users = rows.slice(1).map((r) => parseEnvelope(contracts.userCreated, r.envelope).payload.user);
    expect(users[0]).toMatchObject({ email: 'notification-bot@zulip.com', is_bot: true, is_system_bot: true });
    expect(users.map((u) => u.email)).toContain('default-bot@zulip.com');
    expect(users.find((u) => u.email === 'default-bot@zulip.com')).toMatchObject({ is_bot: true, bot_type: 1 });
    expect(
      parseEnvelope(contracts.realmCreated, rows[0]!.envelope).payload.realm.permissions.can_delete_any_message_group,
    ).toBe('role:administrators');
  });

  it('stores passwords as hashes, and one API key per user (looked up by its hash)', async () => {
    const user = await db.store.users.byEmail((await realm()).id, 'iago@zulip.com');
    expect(user!.passwordHash).toMatch(/^scrypt\$10\$/);
    expect(user!.passwordHash).not.toContain('secret-pass');
    const keys = await prisma.apiKey.findMany({ where: { userId: user!.id } });
    expect(keys).toHaveLength(1);
    expect(keys[0]!.keyHash).toBe(createHash('sha256').update(keys[0]!.key!).digest('hex'));
  });

  it('issues a key by password that authenticates, with the login email in any case', async () => {
    const issued = await fetchApiKeyByPassword(db, limiter(), await realm(), 'IAGO@zulip.com', 'secret-pass');
    expect(issued).toMatchObject({ email: 'iago@zulip.com', api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    const identity = await authenticateApiKey(db, ' iago@ZULIP.com ', issued.api_key);
    expect(identity).toMatchObject({ kind: 'user', userId: issued.user_id, role: 200, isBot: false });
    // The user's one key, every time (as in Zulip).
    const again = await fetchApiKeyByPassword(db, limiter(), await realm(), 'iago@zulip.com', 'secret-pass');
    expect(again.api_key).toBe(issued.api_key);
  });

  it('refuses wrong passwords and then rate-limits that username', async () => {
    const l = limiter();
    const r = await realm();
    for (let i = 0; i < 3; i++) {
      expect(await refusal(fetchApiKeyByPassword(db, l, r, 'hamlet@zulip.com', 'nope'))).toEqual({
        status: 401,
        code: 'AUTHENTICATION_FAILED',
        msg: 'Your username or password is incorrect',
      });
    }
    expect(await refusal(fetchApiKeyByPassword(db, l, r, 'hamlet@zulip.com', 'secret-pass'))).toEqual({
      status: 429,
      code: 'RATE_LIMIT_HIT',
      msg: 'API usage exceeded rate limit',
    });
  });

  it("answers the gateway's questions with Zulip's texts", async () => {
    const [bot] = await createUsers(ctx, await realm(), [
      { email: 'second-bot@zulip.com', fullName: 'Second', role: 400, bot: { ownerEmail: 'hamlet@zulip.com' } },
    ]);
    expect(await refusal(authenticateApiKey(db, 'second-bot@zulip.com', 'x'))).toMatchObject({
      status: 401,
      msg: 'Malformed API key',
    });
    expect(await refusal(authenticateApiKey(db, 'second-bot@zulip.com', 'B'.repeat(32)))).toMatchObject({
      msg: 'Invalid API key',
    });
    expect(await refusal(authenticateApiKey(db, 'hamlet@zulip.com', bot!.apiKey))).toMatchObject({
      msg: 'Invalid API key',
    });
    // An incoming webhook's api_key parameter names no email: the key alone is the bot's.
    expect(await authenticateApiKey(db, null, ` ${bot!.apiKey} `)).toMatchObject({ userId: bot!.user.id, isBot: true });
    expect(await refusal(authenticateApiKey(db, null, 'C'.repeat(32)))).toMatchObject({ msg: 'Invalid API key' });
    await db.write(async (store) => ({ result: await store.users.setActive(bot!.user.id, false), events: [] }));
    expect(await refusal(authenticateApiKey(db, 'second-bot@zulip.com', bot!.apiKey))).toEqual({
      status: 401,
      code: 'UNAUTHORIZED',
      msg: 'Account is deactivated',
    });
    expect(await refusal(authenticateApiKey(db, null, bot!.apiKey))).toMatchObject({ msg: 'Account is deactivated' });
  });

  it('keeps email addresses unique per organization regardless of case', async () => {
    expect(
      await refusal(createUsers(ctx, await realm(), [{ email: 'Cordelia@Zulip.com', fullName: 'Twin', role: 400 }])),
    ).toEqual({
      status: 400,
      code: 'BAD_REQUEST',
      msg: 'Email is already in use.',
    });
  });

  it('issues keys for tokens signed with the organization key only', async () => {
    const r = await realm();
    const good = await fetchApiKeyByJwt(db, r, jwt.sign({ email: 'shiva@zulip.com' }, JWT_KEY, { algorithm: 'HS256' }));
    expect(good.user.email).toBe('shiva@zulip.com');
    const hs512 = jwt.sign({ email: 'shiva@zulip.com' }, JWT_KEY, { algorithm: 'HS512' });
    expect(await refusal(fetchApiKeyByJwt(db, r, hs512))).toMatchObject({ msg: 'Bad JSON web token' });
  });
});
