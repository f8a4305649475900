import { contracts, parseEnvelope } from '@confab/events';
import type { UserIdentity } from '@confab/identity';
import { serviceDatabase } from '../../../libs/devkit/src/databases';
import { addAlertWords } from '../src/domain/alert-words';
import { putBotStorage } from '../src/domain/bot-storage';
import { muteUser } from '../src/domain/muted-users';
import type { ImageFiles, GroupDirectory } from '../src/domain/ports';
import { createDevOrganization } from '../src/domain/provisioning';
import { addRealmEmoji, listRealmEmoji } from '../src/domain/realm-emoji';
import type { User } from '../src/domain/types';
import { PrismaDatabase } from '../src/repositories/database';
import { createPrisma, type Db } from '../src/repositories/prisma';

// Creating and migrating a database takes a few seconds.
jest.setTimeout(60_000);

let database: { url: string; drop: () => Promise<void> };

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

describe('personal state against PostgreSQL: one unit of work per change, safe under concurrent requests', () => {
  let prisma: Db;
  let db: PrismaDatabase;
  let users: Record<string, User>;
  const identity = (user: User): UserIdentity => ({
    kind: 'user',
    userId: user.id,
    realmId: user.realmId,
    role: user.role,
    email: user.email,
    isBot: user.isBot,
  });
  const outbox = async (type: string) =>
    (await prisma.outbox.findMany({ where: { routingKey: type }, orderBy: { id: 'asc' } })).map((r) => r.envelope);

  beforeAll(async () => {
    database = await serviceDatabase('settings', 'personal');
    const url = database.url;
    prisma = createPrisma(url, 6);
    db = new PrismaDatabase(prisma);
    const created = await createDevOrganization(
      { db, externalUrl: 'http://localhost:9991', passwordHashCost: 10 },
      { stringId: '', password: 'secret-pass', jwtKey: null },
    );
    users = Object.fromEntries(created!.users.map(({ user }) => [user.email.split('@')[0]!, user]));
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await database.drop();
  });

  it('adds each alert word once when the same user adds it in racing requests', async () => {
    const hamlet = identity(users.hamlet!);
    await Promise.all(['Tea', 'tea', 'TEA', 'coffee'].map((w) => addAlertWords(db, hamlet, [w], 'req')));
    const words = await db.store.alertWords.list(hamlet.userId);
    expect(words.map((w) => w.toLowerCase()).sort()).toEqual(['coffee', 'tea']);
    const last = (await outbox('alert_words.changed')).map((e) => parseEnvelope(contracts.alertWordsChanged, e)).pop();
    expect(last?.payload.alert_words).toEqual(words);
  });

  it('mutes a user once, with one event, when requests race', async () => {
    const othello = identity(users.othello!);
    const results = await Promise.allSettled([1, 2, 3].map(() => muteUser(db, othello, users.iago!.id, 'req')));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') expect((r.reason as Error).message).toBe('User already muted');
    const events = (await outbox('muted_user.added')).map((e) => parseEnvelope(contracts.mutedUserAdded, e).payload);
    expect(events.filter((e) => e.user_id === othello.userId)).toHaveLength(1);
  });

  it('never lets racing writes of a bot together exceed its storage limit', async () => {
    const bot = identity(users['default-bot']!);
    const value = 'x'.repeat(3_000_000);
    const results = await Promise.allSettled(
      ['a', 'b', 'c', 'd'].map((key) => putBotStorage(db, bot, { [key]: value })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect(await db.store.botStorage.size(bot.userId)).toBe(3 * 3_000_001);
  });

  it('keeps one active custom emoji per name when uploads race, and no row without its image', async () => {
    const saved = new Map<string, Buffer>();
    const files: ImageFiles = {
      save: (realmId, fileName, data) => Promise.resolve(void saved.set(`${realmId}/${fileName}`, data)),
      read: (realmId, fileName) => Promise.resolve(saved.get(`${realmId}/${fileName}`) ?? null),
      remove: (realmId, fileName) => Promise.resolve(void saved.delete(`${realmId}/${fileName}`)),
    };
    const groups: GroupDirectory = {
      activeMembers: () => Promise.resolve([]),
      isMember: () => Promise.resolve(false),
      groupsAfter: () => Promise.resolve([]),
    };
    const ctx = { db, files, groups };
    const results = await Promise.allSettled(
      ['hamlet', 'cordelia', 'prospero'].map((name) =>
        addRealmEmoji(ctx, identity(users[name]!), 'race', [{ data: PNG }], 'req'),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected')
        expect((r.reason as Error).message).toBe('A custom emoji with this name already exists.');
    const emoji = Object.values(await listRealmEmoji(db, users.hamlet!.realmId));
    expect(emoji).toHaveLength(1);
    expect(saved.has(`${users.hamlet!.realmId}/${emoji[0]!.id}.png`)).toBe(true);
  });
});
