import { apiEmailFor, EMAIL_VISIBILITY_EVERYONE } from './email-visibility.js';
import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import { invalid } from '@confab/errors';
import { ROLE_ADMINISTRATOR, ROLE_GUEST, ROLE_MEMBER, ROLE_MODERATOR, ROLE_OWNER } from '@confab/identity';
import { generateApiKey, hashApiKey, hashPassword } from './credentials.js';
import { DEFAULT_REALM_PERMISSIONS, isValidSubdomain, realmRecord } from './realms.js';
import { AlreadyExists, type Database } from './store.js';
import { BOT_TYPE_GENERIC, type Realm, type RealmPatch, type Role, type User } from './types.js';
import { isValidEmail } from './auth.js';
import { createSystemBots } from './system-bots.js';
import { userRecord } from './users.js';
import { newUserEmailVisibility, newUserSettings } from './realm-user-defaults.js';
import { settingsChangedEvent } from './user-settings.js';

export interface ProvisioningContext {
  db: Database;
  externalUrl: string;
  passwordHashCost: number;
  requestId?: string | undefined;
  /** Receives the ids of the events written, so a caller can wait for other services to have handled them. */
  onEvents?: ((eventIds: string[]) => void) | undefined;
}

export interface NewUserSpec {
  email: string;
  fullName: string;
  role: Role;
  password?: string | null;
  bot?: { ownerEmail: string } | undefined;
  /** Signed up through an invitation, whose own steps subscribe the account (`user.created`'s via_invitation). */
  viaInvitation?: boolean;
}

export interface ProvisionedUser {
  user: User;
  apiKey: string;
}

/** Creates an organization; the groups service creates its system groups when it hears `realm.created`. */
export async function createRealm(
  ctx: ProvisioningContext,
  spec: { stringId: string; name: string; description?: string; jwtKey?: string | null },
): Promise<Realm> {
  if (!isValidSubdomain(spec.stringId)) throw invalid(`Invalid subdomain '${spec.stringId}'`);
  try {
    return await ctx.db.write(async (store) => {
      const realm = await store.realms.create({ ...spec, permissions: DEFAULT_REALM_PERMISSIONS });
      const events = [
        outboxRecord(
          contracts.realmCreated,
          { realm: realmRecord(realm, ctx.externalUrl) },
          { realmId: realm.id, requestId: ctx.requestId },
        ),
        ...(await createSystemBots(store, realm, ctx)),
      ];
      ctx.onEvents?.(events.map((e) => e.eventId));
      return { result: realm, events };
    });
  } catch (err) {
    if (err instanceof AlreadyExists) throw invalid(`Subdomain '${spec.stringId}' is already in use`);
    throw err;
  }
}

/** Creates users (and bots, after their owners) in one transaction, each with a fresh API key. */
export async function createUsers(
  ctx: ProvisioningContext,
  realm: Realm,
  specs: readonly NewUserSpec[],
): Promise<ProvisionedUser[]> {
  for (const spec of specs) {
    if (!isValidEmail(spec.email)) throw invalid(`Invalid email '${spec.email}'`);
  }
  const hashes = await Promise.all(
    specs.map((s) => (s.password ? hashPassword(s.password, ctx.passwordHashCost) : Promise.resolve(null))),
  );
  try {
    return await ctx.db.write(async (store) => {
      const created: ProvisionedUser[] = [];
      const events: OutboxRecord[] = [];
      for (const [index, spec] of specs.entries()) {
        let botOwnerId: number | null = null;
        if (spec.bot) {
          const ownerEmail = spec.bot.ownerEmail.toLowerCase();
          const owner =
            created.find((c) => c.user.deliveryEmail.toLowerCase() === ownerEmail)?.user ??
            (await store.users.byEmail(realm.id, ownerEmail));
          if (!owner) throw invalid(`No such bot owner '${spec.bot.ownerEmail}'`);
          botOwnerId = owner.id;
        }
        // People start with the organization's default email visibility; bots' addresses are not private.
        const visibility = spec.bot ? EMAIL_VISIBILITY_EVERYONE : newUserEmailVisibility(realm);
        let user = await store.users.create({
          realmId: realm.id,
          email: spec.email,
          fullName: spec.fullName,
          role: spec.role,
          isBot: spec.bot !== undefined,
          botType: spec.bot ? BOT_TYPE_GENERIC : null,
          botOwnerId,
          passwordHash: hashes[index] ?? null,
          emailAddressVisibility: visibility,
        });
        if (visibility !== EMAIL_VISIBILITY_EVERYONE) {
          user = await store.users.update(user.id, { apiEmail: apiEmailFor(user, visibility, realm, ctx.externalUrl) });
        }
        const fresh = generateApiKey();
        const apiKey = await store.users.ensureApiKey(user.id, fresh, hashApiKey(fresh));
        created.push({ user, apiKey });
        events.push(
          outboxRecord(
            contracts.userCreated,
            { user: userRecord(user), ...(spec.viaInvitation ? { via_invitation: true } : {}) },
            { realmId: realm.id, requestId: ctx.requestId },
          ),
        );
        // New users start with the settings the organization chose for them (PATCH /realm/user_settings_defaults).
        const defaults = newUserSettings(realm);
        if (Object.keys(defaults).length > 0) {
          await store.settings.lockMany([user.id]);
          const stored = { userId: user.id, values: defaults, selfEdited: [] };
          await store.settings.save(stored);
          events.push(settingsChangedEvent(user, stored, Object.keys(defaults), ctx.requestId ?? ''));
        }
      }
      ctx.onEvents?.(events.map((e) => e.eventId));
      return { result: created, events };
    });
  } catch (err) {
    if (err instanceof AlreadyExists) throw invalid('Email is already in use.');
    throw err;
  }
}

export const DEV_PASSWORD_DEFAULT = 'confab-dev';

/** Zulip's development organization: the same people, roles and bot, so familiar accounts work everywhere. */
export const DEV_USERS: readonly NewUserSpec[] = [
  { email: 'desdemona@zulip.com', fullName: 'Desdemona', role: ROLE_OWNER },
  { email: 'iago@zulip.com', fullName: 'Iago', role: ROLE_ADMINISTRATOR },
  { email: 'shiva@zulip.com', fullName: 'Shiva', role: ROLE_MODERATOR },
  { email: 'hamlet@zulip.com', fullName: 'King Hamlet', role: ROLE_MEMBER },
  { email: 'othello@zulip.com', fullName: 'Othello, the Moor of Venice', role: ROLE_MEMBER },
  { email: 'cordelia@zulip.com', fullName: "Cordelia, Lear's daughter", role: ROLE_MEMBER },
  { email: 'prospero@zulip.com', fullName: 'Prospero from The Tempest', role: ROLE_MEMBER },
  { email: 'aaron@zulip.com', fullName: 'aaron', role: ROLE_MEMBER },
  { email: 'polonius@zulip.com', fullName: 'Polonius', role: ROLE_GUEST },
  {
    email: 'default-bot@zulip.com',
    fullName: 'Zulip Default Bot',
    role: ROLE_MEMBER,
    bot: { ownerEmail: 'iago@zulip.com' },
  },
];

/**
 * The development organization (users only; channels and groups come from their own services). Returns null
 * when an organization with that subdomain already exists.
 */
export async function createDevOrganization(
  ctx: ProvisioningContext,
  options: { stringId: string; name?: string; password: string; jwtKey: string | null },
): Promise<{ realm: Realm; users: ProvisionedUser[] } | null> {
  if (await ctx.db.store.realms.byStringId(options.stringId)) return null;
  const realm = await createRealm(ctx, {
    stringId: options.stringId,
    name: options.name ?? 'Zulip Dev',
    description: 'The Confab development organization.',
    jwtKey: options.jwtKey,
  });
  const users = await createUsers(
    ctx,
    realm,
    DEV_USERS.map((u) => (u.bot ? u : { ...u, password: options.password })),
  );
  return { realm, users };
}

/** Organization policies without an API yet (development and tests set them through /internal/dev). */
export async function setRealmPolicies(
  ctx: ProvisioningContext,
  realmId: number,
  policies: RealmPatch,
): Promise<Realm | null> {
  const current = await ctx.db.store.realms.byId(realmId);
  if (!current) return null;
  const permissions = policies.permissions && { ...current.permissions, ...policies.permissions };
  return ctx.db.write(async (store) => {
    const realm = await store.realms.update(realmId, { ...policies, permissions });
    const event = outboxRecord(
      contracts.realmUpdated,
      { realm: realmRecord(realm, ctx.externalUrl) },
      { realmId, requestId: ctx.requestId },
    );
    return { result: realm, events: [event] };
  });
}
