import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import { invalid } from '@confab/errors';
import { ROLE_ADMINISTRATOR, type UserIdentity } from '@confab/identity';
import { adminRequired } from './accounts.js';
import type { FailureLimiter } from './auth.js';
import { hashPassword, verifyPassword } from './credentials.js';
import { apiEmailFor } from './email-visibility.js';
import { startEmailChange, validateEmailChange, type EmailChangeContext } from './email-change.js';
import { isStrongPassword, type PasswordPolicy } from './password-strength.js';
import type { GroupDirectory, PresenceStore } from './ports.js';
import { presenceSharingChanged } from './presence.js';
import { resolveSettings, SETTINGS_BY_NAME, type SettingValue } from './settings-catalog.js';
import type { Database, Store } from './store.js';
import type { Realm, StoredSettings, User } from './types.js';
import { userRecord } from './users.js';
import { checkFullName, checkSettingValues, languageName } from './validators.js';

export interface SettingsChangeContext extends EmailChangeContext {
  db: Database;
  presence: PresenceStore;
  failures: FailureLimiter;
  groups: GroupDirectory;
  config: EmailChangeContext['config'] & { passwordHashCost: number; passwordPolicy: PasswordPolicy };
}

export interface TargetUsers {
  user_ids: number[];
  group_ids: number[];
  skip_if_already_edited: boolean;
}

/** A PATCH /settings request, parameters the client did not send left out. */
export interface SettingsChange {
  fullName?: string | undefined;
  email?: string | undefined;
  oldPassword?: string | undefined;
  newPassword?: string | undefined;
  timezone?: string | undefined;
  /** Who may see the user's delivery email (email-visibility.ts); lives on the user, like the time zone. */
  emailAddressVisibility?: number | undefined;
  targetUsers?: TargetUsers | undefined;
  /** Catalog settings (settings-catalog.ts) by name. */
  settings: Record<string, SettingValue>;
}

const cannotChangeForOthers = () => invalid('Cannot change this setting for other users.');

/** Every personal setting of a user, time zone included: what `user_settings` holds in Zulip's initial state. */
export function settingsSnapshot(
  stored: StoredSettings,
  user: Pick<User, 'timezone' | 'emailAddressVisibility'>,
): Record<string, SettingValue> {
  return {
    ...resolveSettings(stored.values),
    timezone: user.timezone,
    email_address_visibility: user.emailAddressVisibility,
  };
}

export function settingsChangedEvent(
  user: User,
  stored: StoredSettings,
  changed: string[],
  requestId: string,
): OutboxRecord {
  const settings = settingsSnapshot(stored, user);
  const language = typeof settings.default_language === 'string' ? languageName(settings.default_language) : undefined;
  return outboxRecord(
    contracts.userSettingsChanged,
    {
      user_id: user.id,
      realm_id: user.realmId,
      changed,
      settings,
      email: user.email,
      ...(language === undefined ? {} : { language_name: language }),
    },
    { realmId: user.realmId, requestId },
  );
}

/** Sets the values that differ; returns the names changed. `selfEdit` marks them as chosen by the user. */
function applyValues(
  stored: StoredSettings,
  values: Record<string, SettingValue>,
  selfEdit: boolean,
  skipEdited: boolean,
): string[] {
  const current = resolveSettings(stored.values);
  const changed: string[] = [];
  for (const [name, value] of Object.entries(values)) {
    if (skipEdited && stored.selfEdited.includes(name)) continue;
    if (current[name] === value) continue;
    stored.values = { ...stored.values, [name]: value };
    changed.push(name);
    if (selfEdit && !stored.selfEdited.includes(name)) stored.selfEdited = [...stored.selfEdited, name];
  }
  return changed;
}

/** Sets a user's own settings inside a unit of work: the names that changed, and their event. */
export async function setOwnSettings(
  store: Store,
  user: User,
  values: Record<string, SettingValue>,
  requestId: string,
): Promise<{ changed: string[]; events: OutboxRecord[] }> {
  const stored = (await store.settings.lockMany([user.id])).get(user.id)!;
  const changed = applyValues(stored, values, true, false);
  if (changed.length === 0) return { changed, events: [] };
  await store.settings.save(stored);
  return { changed, events: [settingsChangedEvent(user, stored, changed, requestId)] };
}

async function checkOldPassword(ctx: SettingsChangeContext, user: User, oldPassword: string): Promise<void> {
  // The same per-username budget as logging in: a settings form is no way around the login rate limit.
  const key = `${user.realmId}:${user.deliveryEmail.toLowerCase()}`;
  const wait = await ctx.failures.retryAfter(key);
  if (wait > 0) throw invalid(`You're making too many attempts! Try again in ${wait} seconds.`);
  if (!(await verifyPassword(oldPassword, user.passwordHash))) {
    await ctx.failures.recordFailure(key);
    throw invalid('Wrong password!');
  }
}

async function loadActor(ctx: SettingsChangeContext, actor: UserIdentity): Promise<{ user: User; realm: Realm }> {
  const user = await ctx.db.store.users.byId(actor.userId);
  const realm = user && (await ctx.db.store.realms.byId(user.realmId));
  if (!user || !realm) throw invalid('Account is deactivated');
  return { user, realm };
}

/**
 * PATCH /settings (Zulip's json_change_settings): every check first, in Zulip's order (setting values, password,
 * email, name), then the email change is started and everything else is applied in one transaction.
 */
export async function changeSettings(
  ctx: SettingsChangeContext,
  actor: UserIdentity,
  change: SettingsChange,
  requestId: string,
): Promise<void> {
  if (change.targetUsers) return changeSettingsForOthers(ctx, actor, change, change.targetUsers, requestId);
  checkSettingValues(change.settings);
  const { user, realm } = await loadActor(ctx, actor);
  const isAdmin = actor.role <= ROLE_ADMINISTRATOR;

  let passwordHash: string | undefined;
  if (change.newPassword !== undefined) {
    await checkOldPassword(ctx, user, change.oldPassword ?? '');
    if (!isStrongPassword(change.newPassword, ctx.config.passwordPolicy)) throw invalid('New password is too weak!');
    passwordHash = await hashPassword(change.newPassword, ctx.config.passwordHashCost);
  }

  const newEmail = change.email?.trim();
  const changingEmail = newEmail !== undefined && newEmail !== user.deliveryEmail;
  if (changingEmail) await validateEmailChange(ctx, realm, user, isAdmin, newEmail);

  let fullName: string | undefined;
  // Zulip ignores a name change silently when the organization disables them: the UI never offers it.
  if (change.fullName !== undefined && change.fullName !== user.fullName && !(realm.nameChangesDisabled && !isAdmin)) {
    fullName = checkFullName(change.fullName);
    if (fullName === user.fullName) fullName = undefined;
  }

  if (changingEmail) await startEmailChange(ctx, realm, user, newEmail, requestId);

  const timezone = change.timezone !== undefined && change.timezone !== user.timezone ? change.timezone : undefined;
  const visibility =
    change.emailAddressVisibility !== undefined && change.emailAddressVisibility !== user.emailAddressVisibility
      ? change.emailAddressVisibility
      : undefined;
  const changedNames = await ctx.db.write(async (store) => {
    const events: OutboxRecord[] = [];
    const stored = (await store.settings.lockMany([user.id])).get(user.id)!;
    const changed = applyValues(stored, change.settings, true, false);
    if (changed.length > 0) await store.settings.save(stored);
    let updated = user;
    if (fullName !== undefined || timezone !== undefined || passwordHash !== undefined || visibility !== undefined) {
      // Hiding the address gives the account its dummy API email; showing it to everyone makes it the real one.
      const apiEmail =
        visibility === undefined ? undefined : apiEmailFor(user, visibility, realm, ctx.config.externalUrl);
      updated = await store.users.update(user.id, {
        fullName,
        timezone,
        passwordHash,
        emailAddressVisibility: visibility,
        apiEmail,
      });
    }
    if (fullName !== undefined || timezone !== undefined || visibility !== undefined) {
      events.push(
        outboxRecord(contracts.userUpdated, { user: userRecord(updated) }, { realmId: user.realmId, requestId }),
      );
    }
    if (passwordHash !== undefined) {
      // The gateway ends the user's browser sessions (gateway/src/sessions.ts).
      events.push(
        outboxRecord(contracts.userPasswordChanged, { user_id: user.id }, { realmId: user.realmId, requestId }),
      );
    }
    if (timezone !== undefined) changed.push('timezone');
    if (visibility !== undefined) changed.push('email_address_visibility');
    if (changed.length > 0) events.push(settingsChangedEvent(updated, stored, changed, requestId));
    return { result: changed, events };
  });
  if (changedNames.includes('presence_enabled'))
    await presenceSharingChanged(ctx, user, change.settings.presence_enabled === true, requestId);
}

/** The users target_users names: user_ids (any state, same realm) and the active members of group_ids; no bots. */
async function resolveTargets(ctx: SettingsChangeContext, realmId: number, target: TargetUsers): Promise<User[]> {
  const listed = await ctx.db.store.users.inRealm(realmId, target.user_ids);
  const found = new Set(listed.map((u) => u.id));
  const missing = target.user_ids.find((id) => !found.has(id));
  if (missing !== undefined) throw invalid(`Invalid user ID: ${missing}`);
  const memberIds = target.group_ids.length > 0 ? await ctx.groups.activeMembers(realmId, target.group_ids) : [];
  const members = await ctx.db.store.users.inRealm(
    realmId,
    memberIds.filter((id) => !found.has(id)),
  );
  return [...listed, ...members].filter((u) => !u.isBot);
}

/** target_users: administrators change ordinary settings of many users at once; one event per user changed. */
async function changeSettingsForOthers(
  ctx: SettingsChangeContext,
  actor: UserIdentity,
  change: SettingsChange,
  target: TargetUsers,
  requestId: string,
): Promise<void> {
  if (actor.role > ROLE_ADMINISTRATOR) throw adminRequired();
  if (
    change.email !== undefined ||
    change.newPassword !== undefined ||
    change.timezone !== undefined ||
    change.emailAddressVisibility !== undefined
  )
    throw cannotChangeForOthers();
  if (Object.keys(change.settings).some((name) => SETTINGS_BY_NAME.get(name)?.sensitive)) throw cannotChangeForOthers();
  checkSettingValues(change.settings);
  const users = await resolveTargets(ctx, actor.realmId, target);
  if (users.length === 0 || Object.keys(change.settings).length === 0) return;
  await ctx.db.write(async (store) => {
    const rows = await store.settings.lockMany(users.map((u) => u.id));
    const events: OutboxRecord[] = [];
    for (const user of users) {
      const stored = rows.get(user.id)!;
      // Zulip counts an administrator's own row as edited by themselves (acting user = modified user).
      const changed = applyValues(stored, change.settings, user.id === actor.userId, target.skip_if_already_edited);
      if (changed.length === 0) continue;
      await store.settings.save(stored);
      events.push(settingsChangedEvent(user, stored, changed, requestId));
    }
    return { result: undefined, events };
  });
}
