import { randomBytes, randomUUID } from 'node:crypto';
import { serviceDatabase } from '@confab/devkit';
import { PrismaInviteRepository } from '../src/repositories/invites.repository';
import { createPrisma } from '../src/repositories/prisma';
import type { NewInvite } from '../src/domain/types';

const newInvite = (extra: Partial<NewInvite> = {}): NewInvite => ({
  key: randomBytes(12).toString('hex'),
  realmId: 1,
  realmUrl: 'http://org.localhost',
  referrerId: 10,
  inviteAs: 400,
  streamIds: [3, 4],
  groupIds: [],
  includeRealmDefaultSubscriptions: true,
  welcomeMessageCustomText: null,
  createdAt: new Date(),
  expiresAt: null,
  email: null,
  notifyReferrerOnJoin: true,
  ...extra,
});

describe('PrismaInviteRepository (real PostgreSQL)', () => {
  let database: { url: string; drop: () => Promise<void> };
  let prisma: ReturnType<typeof createPrisma>;
  let repo: PrismaInviteRepository;

  beforeAll(async () => {
    database = await serviceDatabase('invitations', 'invites');
    const url = database.url;
    prisma = createPrisma(url, 4);
    repo = new PrismaInviteRepository(prisma);
  });
  afterAll(async () => {
    await prisma.$disconnect();
    await database.drop();
  });

  it('keeps the creation time it is given, to the microsecond the column holds', async () => {
    const createdAt = new Date('2026-03-04T05:06:07.891Z');
    const expiresAt = new Date(createdAt.getTime() + 14_400 * 60_000);
    const made = await repo.create(newInvite({ createdAt, expiresAt }));
    const read = await repo.byId(made.id);
    expect(read?.createdAt.toISOString()).toBe(createdAt.toISOString());
    expect(read?.expiresAt?.toISOString()).toBe(expiresAt.toISOString());
  });

  it('stores a link and finds it by key; lists only active ones', async () => {
    const now = new Date();
    const kept = await repo.create(newInvite());
    const expired = await repo.create(newInvite({ expiresAt: new Date(now.getTime() - 1000) }));
    const revoked = await repo.create(newInvite());
    await repo.revoke(revoked.id, now);
    expect(await repo.byKey(kept.key)).toMatchObject({ id: kept.id, streamIds: [3, 4], inviteAs: 400 });
    const active = (await repo.active(1, now)).map((i) => i.id);
    expect(active).toContain(kept.id);
    expect(active).not.toContain(expired.id);
    expect(active).not.toContain(revoked.id);
  });

  it('lets one sign-up claim an email address of an organization, even when two race', async () => {
    const invite = await repo.create(newInvite({ realmId: 2 }));
    const claims = await Promise.all([
      repo.claimSignup(invite, 'a@example.com'),
      repo.claimSignup(invite, 'a@example.com'),
    ]);
    expect(claims.filter((c) => c !== null)).toHaveLength(1);
    const claimed = claims.find((c) => c !== null)!;
    // Released before an account exists, the address can be claimed again.
    await repo.releaseSignup(claimed.id);
    const again = await repo.claimSignup(invite, 'a@example.com');
    expect(again).not.toBeNull();
    await repo.setSignupUser(again!.id, 77);
    await repo.releaseSignup(again!.id);
    expect(await repo.signupFor(2, 'a@example.com')).toMatchObject({ userId: 77 });
  });

  it('expires a deactivated creator’s valid links once per event', async () => {
    const at = new Date();
    const open = await repo.create(newInvite({ referrerId: 20 }));
    const later = await repo.create(newInvite({ referrerId: 20, expiresAt: new Date(at.getTime() + 3_600_000) }));
    const earlier = new Date(at.getTime() - 3_600_000);
    const past = await repo.create(newInvite({ referrerId: 20, expiresAt: earlier }));
    const someoneElse = await repo.create(newInvite({ referrerId: 21 }));
    const claim = { consumer: 'invitations.referrers', eventId: randomUUID() };

    expect(await repo.expireLinksOf(20, at, claim)).toBe(true);
    expect((await repo.byId(open.id))!.expiresAt).toEqual(at);
    expect((await repo.byId(later.id))!.expiresAt).toEqual(at);
    expect((await repo.byId(past.id))!.expiresAt).toEqual(earlier);
    expect((await repo.byId(someoneElse.id))!.expiresAt).toBeNull();

    // A redelivered event changes nothing, even for a link made in between.
    const made = await repo.create(newInvite({ referrerId: 20 }));
    expect(await repo.expireLinksOf(20, new Date(), claim)).toBe(false);
    expect((await repo.byId(made.id))!.expiresAt).toBeNull();
  });
});
