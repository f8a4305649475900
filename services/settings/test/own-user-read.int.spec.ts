import { serviceDatabase } from '@confab/devkit';
import { createDevOrganization } from '../src/domain/provisioning';
import type { User } from '../src/domain/types';
import { PrismaDatabase } from '../src/repositories/database';
import { SqlOwnUserRead } from '../src/repositories/own-user.sql';
import { createPrisma, type Db } from '../src/repositories/prisma';

jest.setTimeout(60_000);

/** GET /users/me's plain-SQL read gives exactly what the Prisma stores give for the same user. */
describe('the own-user read against PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> };
  let prisma: Db;
  let db: PrismaDatabase;
  let read: SqlOwnUserRead;
  let users: Record<string, User>;

  beforeAll(async () => {
    database = await serviceDatabase('settings', 'ownuser');
    prisma = createPrisma(database.url, 4);
    db = new PrismaDatabase(prisma);
    read = new SqlOwnUserRead(database.url, 2);
    const created = await createDevOrganization(
      { db, externalUrl: 'http://localhost:9991', passwordHashCost: 10 },
      { stringId: '', password: 'secret-pass', jwtKey: null },
    );
    users = Object.fromEntries(created!.users.map(({ user }) => [user.email.split('@')[0]!, user]));
    const realmId = users.hamlet!.realmId;
    const [a, b] = await Promise.all(
      ['Phone', 'Biography'].map((name, order) =>
        prisma.customProfileField.create({ data: { realmId, name, fieldType: 1, order } }),
      ),
    );
    // Written out of field order, one with a rendered value: the read must order and carry them as the store does.
    await prisma.customProfileFieldValue.create({
      data: { fieldId: b!.id, userId: users.hamlet!.id, value: '*bold*', renderedValue: '<p><em>bold</em></p>' },
    });
    await prisma.customProfileFieldValue.create({
      data: { fieldId: a!.id, userId: users.hamlet!.id, value: '+1 555 0100' },
    });
    await prisma.customProfileFieldValue.create({ data: { fieldId: a!.id, userId: users.othello!.id, value: 'x' } });
  });

  afterAll(async () => {
    await read.end();
    await prisma.$disconnect();
    await database.drop();
  });

  it.each(['hamlet', 'othello', 'polonius', 'default-bot'])('reads %s as the stores do', async (name) => {
    const user = Object.values(users).find((u) => u.email.startsWith(`${name}@`));
    expect(user).toBeDefined();
    const expected = {
      user: await db.store.users.byId(user!.id),
      profileValues: await db.store.profileFields.valuesOf([user!.id]),
    };
    expect(await read.ownUser(user!.id)).toEqual(expected);
    // The Prisma fallback of PrismaDatabase gives the same.
    expect(await db.ownUser(user!.id)).toEqual(expected);
  });

  it('hamlet has both values, in field order, rendered value included', async () => {
    const own = await read.ownUser(users.hamlet!.id);
    expect(own!.profileValues.map((v) => [v.value, v.renderedValue])).toEqual([
      ['+1 555 0100', null],
      ['*bold*', '<p><em>bold</em></p>'],
    ]);
  });

  it('answers null for ids no user has, as the store does', async () => {
    for (const id of [0, -1, 987_654, 2_147_483_648, 1.5]) {
      expect(await read.ownUser(id)).toBeNull();
      expect(await db.store.users.byId(id)).toBeNull();
    }
  });

  it.each(['hamlet', 'iago', 'default-bot'])(
    "reads %s's presence facts as the stores do: user, organization, settings",
    async (name) => {
      const user = Object.values(users).find((u) => u.email.startsWith(`${name}@`))!;
      if (name === 'iago')
        await prisma.userSettings.upsert({
          where: { userId: user.id },
          create: { userId: user.id, values: { presence_enabled: false } },
          update: { values: { presence_enabled: false } },
        });
      const realm = (await db.store.realms.byId(user.realmId))!;
      const facts = await read.presenceFacts(user.id);
      expect(facts).toEqual({
        user: await db.store.users.byId(user.id),
        realm: { id: realm.id, presenceDisabled: realm.presenceDisabled },
        settingValues: (await db.store.settings.get(user.id)).values,
      });
      if (name === 'iago') expect(facts!.settingValues.presence_enabled).toBe(false);
      // The Prisma fallback of PrismaDatabase gives the same facts.
      const fallback = await db.presenceFacts(user.id);
      expect({
        ...fallback,
        realm: { id: fallback!.realm.id, presenceDisabled: fallback!.realm.presenceDisabled },
      }).toEqual(facts);
    },
  );

  it('reads no presence facts for ids no user has', async () => {
    for (const id of [0, 987_654, 1.5]) {
      expect(await read.presenceFacts(id)).toBeNull();
      expect(await db.presenceFacts(id)).toBeNull();
    }
  });
});
