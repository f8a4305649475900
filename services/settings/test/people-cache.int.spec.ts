import { serviceDatabase } from '@confab/devkit';
import { textOfJson } from '@confab/zulip';
import { PeopleCache, type PeopleSource } from '../src/domain/people-cache';
import { createDevOrganization } from '../src/domain/provisioning';
import type { User } from '../src/domain/types';
import { apiUserRecord } from '../src/domain/users';
import { PrismaDatabase } from '../src/repositories/database';
import { createPrisma, type Db } from '../src/repositories/prisma';

jest.setTimeout(60_000);

/**
 * The people cache of /register against PostgreSQL: every kind of committed write to an organization's users or
 * their profile values changes its fingerprint (so the next register reads them again), reads change nothing, and
 * the cached dicts are exactly what the stores give, each viewer seeing their own address.
 */
describe('the people cache against PostgreSQL', () => {
  let database: { url: string; drop: () => Promise<void> };
  let prisma: Db;
  let db: PrismaDatabase;
  let users: Record<string, User>;
  let realmId: number;
  let reads = 0;
  let source: PeopleSource;

  beforeAll(async () => {
    database = await serviceDatabase('settings', 'people');
    prisma = createPrisma(database.url, 4);
    db = new PrismaDatabase(prisma);
    const created = await createDevOrganization(
      { db, externalUrl: 'http://localhost:9991', passwordHashCost: 10 },
      { stringId: '', password: 'secret-pass', jwtKey: null },
    );
    users = Object.fromEntries(created!.users.map(({ user }) => [user.email.split('@')[0]!, user]));
    realmId = users.hamlet!.realmId;
    source = {
      fingerprint: (id) => db.store.users.peopleFingerprint(id),
      async snapshot(id) {
        reads += 1;
        const [all, systemBots] = await Promise.all([db.store.users.inRealm(id), db.store.users.systemBots(id)]);
        return { users: all, systemBots, profileValues: await db.store.profileFields.valuesOf(all.map((u) => u.id)) };
      },
    };
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await database.drop();
  });

  const fingerprint = () => db.store.users.peopleFingerprint(realmId);

  it('keeps its fingerprint through reads and locks', async () => {
    const before = await fingerprint();
    await db.store.users.inRealm(realmId);
    await prisma.$transaction(async (tx) => {
      await tx.$queryRawUnsafe('SELECT id FROM users WHERE id = $1 FOR UPDATE', users.hamlet!.id);
    });
    expect(await fingerprint()).toBe(before);
  });

  it.each<[string, () => Promise<unknown>]>([
    ['a name', () => db.store.users.update(users.hamlet!.id, { fullName: 'Hamlet, Prince' })],
    ['a role', () => db.store.users.update(users.othello!.id, { role: 300 })],
    ['a time zone', () => db.store.users.update(users.hamlet!.id, { timezone: 'Europe/Copenhagen' })],
    ['a deactivation', () => db.store.users.setActive(users.polonius!.id, false)],
    ['an avatar', () => db.store.users.setAvatar(users.hamlet!.id, 'a.png')],
    ['an email visibility', () => db.store.users.update(users.iago!.id, { emailAddressVisibility: 3 })],
    ['a new user', () => db.store.users.create({ realmId, email: 'new@zulip.com', fullName: 'New Person', role: 400 })],
    [
      'a profile value, then its change',
      async () => {
        const field = await prisma.customProfileField.create({
          data: { realmId, name: 'Phone', fieldType: 1, order: 0 },
        });
        const key = { fieldId: field.id, userId: users.hamlet!.id };
        await prisma.customProfileFieldValue.create({ data: { ...key, value: '1' } });
        const afterCreate = await fingerprint();
        await prisma.customProfileFieldValue.update({ where: { fieldId_userId: key }, data: { value: '2' } });
        expect(await fingerprint()).not.toBe(afterCreate);
      },
    ],
    [
      "a profile value's removal",
      () => prisma.customProfileFieldValue.deleteMany({ where: { userId: users.hamlet!.id } }),
    ],
  ])('changes its fingerprint with %s', async (_what, write) => {
    const before = await fingerprint();
    await write();
    expect(await fingerprint()).not.toBe(before);
  });

  it('reads the people once per fingerprint, and gives each viewer the dicts the stores give', async () => {
    const cache = new PeopleCache();
    reads = 0;
    // iago's address is for administrators only (the test above): othello (now a moderator) sees null.
    const viewer = (await db.store.users.byId(users.othello!.id))!;
    const first = await cache.realmUsers(source, realmId, false, viewer);
    const again = await cache.realmUsers(source, realmId, false, viewer);
    expect(reads).toBe(1);
    const all = await db.store.users.inRealm(realmId);
    const expected = (list: User[]) =>
      list.map((u) =>
        apiUserRecord(
          u,
          { clientGravatar: false, includeCustomProfileFields: true, viewer: { userId: viewer.id, role: viewer.role } },
          {},
        ),
      );
    const parse = (v: unknown) => JSON.parse(textOfJson(v)!) as Record<string, unknown>[];
    expect(parse(first.realm_users)).toEqual(expected(all.filter((u) => u.isActive)));
    expect(parse(first.realm_non_active_users)).toEqual(expected(all.filter((u) => !u.isActive)));
    expect(parse(again.realm_users)).toEqual(parse(first.realm_users));
    const iago = parse(first.realm_users).find((u) => u.user_id === users.iago!.id)!;
    expect(iago.delivery_email).toBeNull();
    // iago himself sees his own address, from the same cached entry.
    const asIago = parse(
      (await cache.realmUsers(source, realmId, false, (await db.store.users.byId(users.iago!.id))!)).realm_users,
    );
    expect(asIago.find((u) => u.user_id === users.iago!.id)!.delivery_email).toBe(users.iago!.deliveryEmail);
    expect(reads).toBe(1);

    // A committed change: the next answer shows it.
    await db.store.users.update(users.othello!.id, { fullName: 'Othello, Moor of Venice' });
    const changed = parse((await cache.realmUsers(source, realmId, false, viewer)).realm_users);
    expect(reads).toBe(2);
    expect(changed.find((u) => u.user_id === users.othello!.id)!.full_name).toBe('Othello, Moor of Venice');
  });

  it("gives GET /users' members in id order, deactivated ones included, profile data only when asked", async () => {
    const cache = new PeopleCache();
    const field = await prisma.customProfileField.create({ data: { realmId, name: 'Desk', fieldType: 1, order: 1 } });
    await prisma.customProfileFieldValue.create({ data: { fieldId: field.id, userId: users.iago!.id, value: '4B' } });
    const viewer = (await db.store.users.byId(users.iago!.id))!;
    const all = await db.store.users.inRealm(realmId);
    const parse = (v: unknown) => JSON.parse(textOfJson(v)!) as Record<string, unknown>[];
    const plain = parse(
      await cache.members(source, realmId, { clientGravatar: true, includeCustomProfileFields: false }, viewer),
    );
    expect(plain.map((u) => u.user_id)).toEqual(all.map((u) => u.id));
    expect(plain.some((u) => u.is_active === false)).toBe(true);
    expect(plain.every((u) => !('profile_data' in u))).toBe(true);
    const withFields = parse(
      await cache.members(source, realmId, { clientGravatar: true, includeCustomProfileFields: true }, viewer),
    );
    const ownRecord = withFields.find((u) => u.user_id === viewer.id)!;
    expect(ownRecord.profile_data).toEqual({ [String(field.id)]: { value: '4B' } });
    // His own address, which his setting shows to administrators only, he sees himself; a member sees null.
    expect(ownRecord.delivery_email).toBe(users.iago!.deliveryEmail);
    const member = (await db.store.users.byId(users.cordelia!.id))!;
    const asMember = parse(
      await cache.members(source, realmId, { clientGravatar: true, includeCustomProfileFields: true }, member),
    );
    expect(asMember.find((u) => u.user_id === viewer.id)!.delivery_email).toBeNull();
    expect(asMember.map((u) => u.user_id)).toEqual(all.map((u) => u.id));
  });
});
