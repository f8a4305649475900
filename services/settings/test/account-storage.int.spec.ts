import { randomBytes } from 'node:crypto';
import { contracts, parseEnvelope } from '@confab/events';
import { ROLE_ADMINISTRATOR, ROLE_MEMBER, type UserIdentity } from '@confab/identity';
import { createLogger } from '@confab/logging';
// The devkit's database helpers, from source: this package does not depend on the devkit package.
import { serviceDatabase } from '@confab/devkit';
import type { PresenceStore } from '../src/domain/ports';
import { addNavigationView, updateNavigationView } from '../src/domain/navigation-views';
import { createDevOrganization } from '../src/domain/provisioning';
import { ensureSystemBots, NOTIFICATION_BOT } from '../src/domain/system-bots';
import type { User } from '../src/domain/types';
import { changeSettings, type SettingsChangeContext } from '../src/domain/user-settings';
import { PrismaDatabase } from '../src/repositories/database';
import { createPrisma, type Db } from '../src/repositories/prisma';

// Creating and migrating a database takes a few seconds.
jest.setTimeout(60_000);
let database: { url: string; drop: () => Promise<void> };

describe('personal settings, navigation views, email changes and meeting tokens against PostgreSQL', () => {
  let prisma: Db;
  let db: PrismaDatabase;
  let ctx: SettingsChangeContext;
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
    database = await serviceDatabase('settings', 'accounts');
    const url = database.url;
    prisma = createPrisma(url, 6);
    db = new PrismaDatabase(prisma);
    const created = await createDevOrganization(
      { db, externalUrl: 'http://localhost:9991', passwordHashCost: 10 },
      { stringId: '', password: 'secret-pass', jwtKey: null },
    );
    users = Object.fromEntries(created!.users.map(({ user }) => [user.email.split('@')[0]!, user]));
    const noLimit = { retryAfter: () => Promise.resolve(0), recordFailure: () => Promise.resolve() };
    ctx = {
      db,
      emailChangeLimiter: noLimit,
      failures: noLimit,
      mailer: { enabled: false, send: () => Promise.reject(new Error('no mail')) },
      groups: {
        activeMembers: () => Promise.resolve([]),
        isMember: () => Promise.resolve(false),
        groupsAfter: () => Promise.resolve([]),
      },
      // Presence is not part of these specs: any use of it fails the test.
      presence: new Proxy({} as PresenceStore, {
        get: () => () => Promise.reject(new Error('presence is not used here')),
      }),
      logger: createLogger({ name: 'test', level: 'silent' }),
      config: {
        externalUrl: 'http://localhost:9991',
        mail: { linkValiditySeconds: 60 },
        passwordHashCost: 10,
        passwordPolicy: { minLength: 6, minGuesses: 10_000 },
      },
    };
  });

  afterAll(async () => {
    await prisma.$disconnect();
    await database.drop();
  });

  it('gives each organization one Notification Bot, outside its members, also to organizations made before it', async () => {
    const realmId = users.hamlet!.realmId;
    const bots = await db.store.users.systemBots(realmId);
    expect(bots).toEqual([
      expect.objectContaining({ email: NOTIFICATION_BOT.email, fullName: 'Notification Bot', isSystemBot: true }),
    ]);
    expect((await db.store.users.inRealm(realmId)).map((u) => u.email)).not.toContain(NOTIFICATION_BOT.email);
    const created = (await outbox('user.created')).map((e) => parseEnvelope(contracts.userCreated, e).payload.user);
    expect(created.filter((u) => u.is_system_bot)).toEqual([expect.objectContaining({ user_id: bots[0]!.id })]);

    // An organization from before system bots: start-up gives it one, once, however many replicas start together.
    await prisma.user.delete({ where: { id: bots[0]!.id } });
    const logger = createLogger({ name: 'test', level: 'silent' });
    await Promise.all([ensureSystemBots(db, logger), ensureSystemBots(db, logger)]);
    await ensureSystemBots(db, logger);
    const again = await db.store.users.systemBots(realmId);
    expect(again).toHaveLength(1);
    expect(again[0]!.id).not.toBe(bots[0]!.id);
  });

  it('counts active users only as far as asked: deactivated users and system bots are not counted', async () => {
    const realmId = users.hamlet!.realmId;
    const members = (await db.store.users.inRealm(realmId)).filter((u) => u.isActive);
    expect(members.length).toBeGreaterThan(3);
    expect(await db.store.users.countActive(realmId, 1_000)).toBe(members.length);
    expect(await db.store.users.countActive(realmId, 3)).toBe(3);
    expect(await db.store.users.countActive(realmId, 0)).toBe(0);
    await db.store.users.setActive(users.hamlet!.id, false);
    try {
      expect(await db.store.users.countActive(realmId, 1_000)).toBe(members.length - 1);
    } finally {
      await db.store.users.setActive(users.hamlet!.id, true);
    }
    expect(await db.store.users.countActive(realmId + 1_000, 10)).toBe(0);
  });

  it('keeps every key when the same user changes different settings concurrently', async () => {
    const hamlet = users.hamlet!;
    const names = [
      'enter_sends',
      'fluid_layout_width',
      'high_contrast_mode',
      'translate_emoticons',
      'left_side_userlist',
      'twenty_four_hour_time',
    ];
    await Promise.all(
      names.map((name) => changeSettings(ctx, identity(hamlet), { settings: { [name]: true } }, 'req')),
    );
    const stored = await db.store.settings.get(hamlet.id);
    for (const name of names) expect(stored.values[name]).toBe(true);
    expect([...stored.selfEdited].sort()).toEqual([...names].sort());
    const events = (await outbox('user_settings.changed')).map(
      (e) => parseEnvelope(contracts.userSettingsChanged, e).payload,
    );
    expect(events.filter((e) => e.user_id === hamlet.id)).toHaveLength(names.length);
    // Each event's snapshot includes everything committed before it, so the last one has every key.
    const last = events.filter((e) => e.user_id === hamlet.id).pop()!;
    for (const name of names) expect(last.settings[name]).toBe(true);
  });

  it('writes the settings change and its event in one transaction, and nothing for an unchanged value', async () => {
    const cordelia = users.cordelia!;
    const before = (await outbox('user_settings.changed')).length;
    await changeSettings(ctx, identity(cordelia), { settings: { color_scheme: 2 }, timezone: 'Asia/Tokyo' }, 'req-1');
    await changeSettings(ctx, identity(cordelia), { settings: { color_scheme: 2 }, timezone: 'Asia/Tokyo' }, 'req-2');
    const after = await outbox('user_settings.changed');
    expect(after).toHaveLength(before + 1);
    const event = parseEnvelope(contracts.userSettingsChanged, after[after.length - 1]);
    expect(event.request_id).toBe('req-1');
    expect(event.payload).toMatchObject({
      changed: ['color_scheme', 'timezone'],
      settings: { color_scheme: 2, timezone: 'Asia/Tokyo' },
    });
    expect((await db.store.users.byId(cordelia.id))!.timezone).toBe('Asia/Tokyo');
    const updates = (await outbox('user.updated')).map((e) => parseEnvelope(contracts.userUpdated, e).payload.user);
    expect(updates.filter((u) => u.user_id === cordelia.id)).toHaveLength(1);
  });

  it('lets an administrator change many users in one transaction, one event each', async () => {
    const targets = [users.othello!, users.prospero!, users.polonius!];
    const before = (await outbox('user_settings.changed')).length;
    await changeSettings(
      ctx,
      identity(users.iago!),
      {
        settings: { demote_inactive_streams: 3 },
        targetUsers: { user_ids: targets.map((u) => u.id), group_ids: [], skip_if_already_edited: true },
      },
      'req',
    );
    expect(await outbox('user_settings.changed')).toHaveLength(before + 3);
    for (const user of targets) {
      const stored = await db.store.settings.get(user.id);
      expect(stored.values.demote_inactive_streams).toBe(3);
      expect(stored.selfEdited).toEqual([]);
    }
    expect(users.iago!.role).toBe(ROLE_ADMINISTRATOR);
    expect(users.othello!.role).toBe(ROLE_MEMBER);
  });

  it('refuses a duplicate navigation view even when two requests race', async () => {
    const aaron = identity(users.aaron!);
    const results = await Promise.allSettled(
      [1, 2, 3].map(() =>
        addNavigationView(db, aaron, { fragment: 'narrow/channel/9', isPinned: true, name: 'Nine' }, 'req'),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results)
      if (r.status === 'rejected') expect((r.reason as Error).message).toBe('Navigation view already exists.');
    expect(await db.store.navigationViews.list(aaron.userId)).toEqual([
      { fragment: 'narrow/channel/9', isPinned: true, name: 'Nine' },
    ]);
    await expect(
      updateNavigationView(db, aaron, 'narrow/channel/10', { isPinned: false, name: undefined }, 'req'),
    ).rejects.toMatchObject({
      status: 404,
      code: 'NOT_FOUND',
    });
  });

  it('uses an email-change request and an OAuth state only once', async () => {
    const shiva = users.shiva!;
    const request = await db.store.emailChanges.create({
      userId: shiva.id,
      oldEmail: shiva.email,
      newEmail: 'shiva@new.test',
      keyHash: randomBytes(16).toString('hex'),
      expiresAt: new Date(Date.now() + 60_000),
    });
    const claims = await Promise.all(
      [1, 2, 3].map(() =>
        db.write(async (store) => ({ result: await store.emailChanges.claim(request.id, new Date()), events: [] })),
      ),
    );
    expect(claims.filter(Boolean)).toHaveLength(1);

    const tokens = db.store.meetingTokens;
    await tokens.addState('state-hash', shiva.id, new Date(Date.now() + 60_000));
    const takes = await Promise.all([1, 2, 3].map(() => tokens.takeState('state-hash', new Date())));
    expect(takes.filter((t) => t === shiva.id)).toHaveLength(1);
    await tokens.addState('old-state', shiva.id, new Date(Date.now() - 1));
    expect(await tokens.takeState('old-state', new Date())).toBeNull();
  });
});
