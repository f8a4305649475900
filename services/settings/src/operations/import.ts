import { rm } from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import {
  exportFile,
  fetchedDir,
  HeldTransaction,
  ImportError,
  modelPath,
  readAllNdjson,
  readJson,
  WrittenFiles,
  type ImportEvent,
  type LoaderProgress,
  type ModelEmoji,
  type ModelProfileField,
  type ModelRealm,
  type ModelUser,
  type ServiceLoader,
  type StageInput,
  type StageResult,
} from '@confab/porting';
import { SharpImageResizer } from '../adapters/image-resizer.js';
import { DirectoryImageFiles } from '../adapters/image-files.js';
import { isValidEmail } from '../domain/auth.js';
import { apiEmailFor, EMAIL_VISIBILITY_EVERYONE } from '../domain/email-visibility.js';
import { importedRealmPatch, importedUserSettings } from '../domain/imported.js';
import { imageKind } from '../domain/images.js';
import { AVATAR_SIZE, mediumAvatarName, MEDIUM_AVATAR_SIZE, storedImageName } from '../domain/avatars.js';
import { CUSTOM_PROFILE_FIELD_TYPES } from '../domain/profile-fields.js';
import { emojiRecord } from '../domain/realm-emoji.js';
import { DEFAULT_REALM_PERMISSIONS, isValidSubdomain, realmRecord, renderDescription } from '../domain/realms.js';
import { newUserEmailVisibility, newUserSettings } from '../domain/realm-user-defaults.js';
import { createSystemBots } from '../domain/system-bots.js';
import { settingsChangedEvent } from '../domain/user-settings.js';
import { userRecord } from '../domain/users.js';
import type { Realm, User } from '../domain/types.js';
import { storeOn } from '../repositories/database.js';
import type { Db, Prisma, Tx } from '../repositories/prisma.js';

/** One import at a time (a transaction-scoped advisory lock of the settings database). */
const IMPORT_LOCK_KEY = 724_043;
/** Inserts per statement. */
const CHUNK = 1000;

export interface SettingsImportOptions {
  db: Db;
  externalUrl: string;
  /** `<CONFAB_DATA_DIR>/emoji` and `<CONFAB_DATA_DIR>/avatars`, as the settings service finds them. */
  emojiDir: string;
  avatarDir: string;
}

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const date = (seconds: number) => new Date(Math.round(seconds * 1000));

/**
 * The settings service's part of an import (docs/architecture.md, "Moving organizations in and out"): the
 * organization with its settings, users (their personal settings, profile fields, avatars, mutes, alert words and
 * statuses), custom emoji, its Notification Bot, and the copy of the groups service's system groups. Its commit is
 * the import's commit point: until it commits, nothing of the organization is reachable in any service.
 */
export class SettingsImportLoader implements ServiceLoader {
  private readonly held: HeldTransaction<Tx>;
  private readonly files = new WrittenFiles();
  private readonly emojiFiles: DirectoryImageFiles;
  private readonly avatars: DirectoryImageFiles;
  private readonly resizer = new SharpImageResizer();
  private realm: Realm | null = null;

  constructor(private readonly options: SettingsImportOptions) {
    this.held = new HeldTransaction<Tx>((body) =>
      options.db.$transaction(body, { timeout: 24 * 3600 * 1000, maxWait: 60_000 }),
    );
    this.emojiFiles = new DirectoryImageFiles(options.emojiDir);
    this.avatars = new DirectoryImageFiles(options.avatarDir);
  }

  /** The import's transaction, with the import lock taken first. */
  private async tx(): Promise<Tx> {
    const first = !this.held.started;
    const tx = await this.held.get();
    if (first) await tx.$executeRawUnsafe('SELECT pg_advisory_xact_lock($1)', IMPORT_LOCK_KEY);
    return tx;
  }

  /** Fails early, before the export is read, when the subdomain cannot be used. */
  async checkSubdomain(subdomain: string): Promise<void> {
    if (!isValidSubdomain(subdomain) || subdomain === '')
      throw new ImportError(`Invalid subdomain '${subdomain}': lower-case letters, digits and dashes`);
    const tx = await this.tx();
    if (await storeOn(tx).realms.byStringId(subdomain)) throw new ImportError(`Subdomain '${subdomain}' is already in use`);
  }

  async allocate(request: Record<string, number>): Promise<Record<string, number[]>> {
    const sequences: Record<string, string> = {
      realm: 'realms_id_seq',
      users: 'users_id_seq',
      profile_fields: 'custom_profile_fields_id_seq',
      emoji: 'realm_emoji_id_seq',
    };
    const tx = await this.tx();
    const out: Record<string, number[]> = {};
    for (const [kind, count] of Object.entries(request)) {
      const sequence = sequences[kind];
      if (!sequence) throw new Error(`settings allocates no ${kind}`);
      const rows = await tx.$queryRawUnsafe<{ id: number }[]>(
        `SELECT nextval('${sequence}')::int AS id FROM generate_series(1, $1::int)`,
        count,
      );
      out[kind] = rows.map((r) => r.id);
    }
    return out;
  }

  async stage(input: StageInput, progress: (p: LoaderProgress) => void): Promise<StageResult> {
    const tx = await this.tx();
    const store = storeOn(tx);
    const requestId = `import-${input.realmId}`;
    const meta = { realmId: input.realmId, requestId };
    const model = await readJson<ModelRealm>(modelPath(input.workDir, 'realm'));
    const users = await readAllNdjson<ModelUser>(modelPath(input.workDir, 'users'));
    const fields = await readAllNdjson<ModelProfileField>(modelPath(input.workDir, 'profileFields'));
    const emoji = await readAllNdjson<ModelEmoji>(modelPath(input.workDir, 'emoji'));
    const root = input.sourceRoot;
    const events: OutboxRecord[] = [];
    const notes: string[] = [];

    // The organization, then its settings as PATCH /realm stores them.
    await tx.realm.create({
      data: {
        id: model.id,
        stringId: model.subdomain,
        name: model.name.slice(0, 40) || model.subdomain,
        dateCreated: date(model.dateCreated),
        permissions: DEFAULT_REALM_PERMISSIONS,
      },
    });
    const { patch, skipped } = importedRealmPatch(model);
    if (skipped.length > 0) notes.push(`organization settings not kept: ${skipped.join(', ')}`);
    const realm = await store.realms.update(model.id, {
      ...patch,
      permissions: { ...DEFAULT_REALM_PERMISSIONS, ...patch.permissions },
    });
    this.realm = realm;
    events.push(outboxRecord(contracts.realmCreated, { realm: realmRecord(realm, this.options.externalUrl) }, meta));
    events.push(...(await createSystemBots(store, realm, { requestId })));

    for (const rows of chunks(fields)) {
      await tx.customProfileField.createMany({
        data: rows.map((f) => ({
          id: f.id,
          realmId: realm.id,
          name: f.name,
          hint: f.hint,
          fieldType: f.fieldType,
          fieldData: f.fieldData,
          order: f.order,
          displayInProfileSummary: f.displayInProfileSummary,
          required: f.required,
          editableByUser: f.editableByUser,
        })),
      });
    }

    progress({ phase: 'users', done: 0, total: users.length });
    const seen = new Map<string, ModelUser>();
    const rows = [];
    for (const user of users) {
      const key = user.email.toLowerCase();
      if (!isValidEmail(user.email)) throw new ImportError(`invalid email address '${user.email}'`, `user ${user.sourceId}`);
      const other = seen.get(key);
      if (other) throw new ImportError(`the email address '${user.email}' is also ${other.sourceId}'s`, `user ${user.sourceId}`);
      seen.set(key, user);
      const visibility = user.isBot
        ? EMAIL_VISIBILITY_EVERYONE
        : (user.emailAddressVisibility ?? newUserEmailVisibility(realm));
      const avatarFile = user.avatarFile
        ? await this.avatar(realm.id, user, user.avatarFetched ? fetchedDir(input.workDir) : root)
        : null;
      rows.push({
        id: user.id,
        realmId: realm.id,
        email: apiEmailFor({ id: user.id, deliveryEmail: user.email }, visibility, realm, this.options.externalUrl),
        deliveryEmail: user.email,
        emailKey: key,
        fullName: user.fullName.slice(0, 100),
        role: user.role,
        isBot: user.isBot,
        botType: user.isBot ? (user.botType ?? 1) : null,
        botOwnerId: user.botOwnerId,
        isActive: user.isActive,
        isImportedStub: true,
        timezone: user.timezone,
        dateJoined: date(user.dateJoined),
        avatarFile,
        avatarVersion: avatarFile ? 2 : 1,
        emailAddressVisibility: visibility,
      });
    }
    for (const part of chunks(rows)) await tx.user.createMany({ data: part });
    const stored = new Map((await store.users.inRealm(realm.id)).map((u) => [u.id, u]));
    for (const user of users) events.push(outboxRecord(contracts.userCreated, { user: userRecord(stored.get(user.id)!) }, meta));
    progress({ phase: 'users', done: users.length, total: users.length });

    // Personal settings: what the organization gives new users, and what the export kept for each.
    const defaults = newUserSettings(realm);
    const settingsRows: { userId: number; values: Record<string, unknown> }[] = [];
    for (const user of users) {
      const values = { ...defaults, ...importedUserSettings(user.settings) };
      if (Object.keys(values).length > 0) settingsRows.push({ userId: user.id, values });
    }
    for (const part of chunks(settingsRows)) {
      await tx.userSettings.createMany({
        data: part.map((s) => ({ userId: s.userId, values: s.values as Prisma.InputJsonObject, selfEdited: [] })),
      });
    }
    for (const s of settingsRows) {
      events.push(
        settingsChangedEvent(stored.get(s.userId)!, { ...s, selfEdited: [] }, Object.keys(s.values), requestId),
      );
    }

    const fieldTypes = new Map(fields.map((f) => [f.id, f.fieldType]));
    const values = users.flatMap((u) =>
      u.profile.map((p) => ({
        fieldId: p.fieldId,
        userId: u.id,
        value: p.value,
        renderedValue: fieldTypes.get(p.fieldId) === CUSTOM_PROFILE_FIELD_TYPES.LONG_TEXT.id ? renderDescription(p.value) : null,
      })),
    );
    for (const part of chunks(values)) await tx.customProfileFieldValue.createMany({ data: part });

    const muted = users.flatMap((u) => u.mutedUsers.map((m) => ({ user: u, mutedUserId: m.userId, at: m.dateMuted })));
    for (const part of chunks(muted)) {
      await tx.mutedUser.createMany({
        data: part.map((m) => ({ userId: m.user.id, mutedUserId: m.mutedUserId, dateMuted: date(m.at) })),
        skipDuplicates: true,
      });
    }
    for (const user of users) {
      if (user.mutedUsers.length === 0) continue;
      const list = user.mutedUsers.map((m) => ({ id: m.userId, timestamp: Math.trunc(m.dateMuted) }));
      for (const m of user.mutedUsers) {
        events.push(
          outboxRecord(
            contracts.mutedUserAdded,
            { user_id: user.id, realm_id: realm.id, muted_user_id: m.userId, muted_users: list },
            meta,
          ),
        );
      }
    }
    const words = users.flatMap((u) => [...new Set(u.alertWords)].map((word) => ({ realmId: realm.id, userId: u.id, word })));
    for (const part of chunks(words)) await tx.alertWord.createMany({ data: part });
    for (const user of users) {
      if (user.alertWords.length === 0) continue;
      events.push(
        outboxRecord(
          contracts.alertWordsChanged,
          { user_id: user.id, realm_id: realm.id, alert_words: [...new Set(user.alertWords)] },
          meta,
        ),
      );
    }
    const statuses = users.filter((u) => u.status !== null);
    for (const part of chunks(statuses)) {
      await tx.userStatus.createMany({
        data: part.map((u) => ({
          userId: u.id,
          statusText: u.status!.text,
          emojiName: u.status!.emojiName,
          emojiCode: u.status!.emojiCode,
          reactionType: u.status!.reactionType,
          timestamp: date(u.status!.timestamp),
        })),
      });
    }

    for (const e of emoji) {
      const image = await readFile(exportFile(e.fetched ? fetchedDir(input.workDir) : root, e.file)).catch((err: unknown) => {
        throw err instanceof ImportError ? err : new ImportError('the image is missing', `emoji ${e.name}`);
      });
      const kind = imageKind(image);
      if (!kind) throw new ImportError('not an image', `emoji ${e.name} (${e.file})`);
      const fileName = `${e.id}.${kind.extension}`;
      await this.emojiFiles.save(realm.id, fileName, image);
      this.files.add(join(this.options.emojiDir, String(realm.id), fileName));
      await tx.realmEmoji.create({
        data: {
          id: e.id,
          realmId: realm.id,
          name: e.name,
          authorId: e.authorId,
          fileName,
          isAnimated: kind.animated,
          deactivated: e.deactivated,
        },
      });
    }
    if (emoji.length > 0) {
      const all = await store.emoji.inRealm(realm.id);
      const dict = Object.fromEntries(all.map((e) => [String(e.id), emojiRecord(e)]));
      for (const e of all)
        events.push(outboxRecord(contracts.realmEmojiAdded, { realm_id: realm.id, emoji: emojiRecord(e), realm_emoji: dict }, meta));
    }

    return {
      counts: {
        users: users.length,
        'custom profile fields': fields.length,
        'custom emoji': emoji.length,
        avatars: rows.filter((r) => r.avatarFile !== null).length,
      },
      events: events.map((e) => e.envelope as unknown as ImportEvent),
      notes,
    };
  }

  /** The user's picture resized as an uploaded avatar (Zulip's 100×100 and 500×500), or null when not an image. */
  private async avatar(realmId: number, user: ModelUser, root: string): Promise<string | null> {
    const data = await readFile(exportFile(root, user.avatarFile!));
    const small = await this.resizer.squarePng(data, AVATAR_SIZE);
    const medium = await this.resizer.squarePng(data, MEDIUM_AVATAR_SIZE);
    if (!small || !medium) return null;
    const name = storedImageName(user.id, 'png');
    await this.avatars.save(realmId, name, small);
    await this.avatars.save(realmId, mediumAvatarName(name), medium);
    this.files.add(join(this.options.avatarDir, String(realmId), name));
    this.files.add(join(this.options.avatarDir, String(realmId), mediumAvatarName(name)));
    return name;
  }

  /** The groups service's system groups, as settings' consumer of `group.created` keeps them. */
  async apply(events: ImportEvent[]): Promise<void> {
    const tx = await this.tx();
    const store = storeOn(tx);
    for (const raw of events) {
      if (raw.type !== contracts.groupCreated.type) continue;
      const { group } = contracts.groupCreated.schema.parse(raw.payload);
      if (group.is_system_group) await store.systemGroups.save(group.realm_id, group.name, group.group_id);
    }
  }

  async commit(): Promise<void> {
    await this.held.commit();
    this.files.forget();
  }

  async abort(): Promise<void> {
    await this.held.abort();
    await this.files.removeAll((path) => rm(path, { force: true }));
  }

  async purge(realmId: number): Promise<void> {
    const db = this.options.db;
    await db.$transaction(async (tx) => {
      const users = { realmId };
      await tx.customProfileFieldValue.deleteMany({ where: { user: users } });
      await tx.customProfileField.deleteMany({ where: { realmId } });
      await tx.alertWord.deleteMany({ where: { realmId } });
      await tx.realmEmoji.deleteMany({ where: { realmId } });
      await tx.systemGroup.deleteMany({ where: { realmId } });
      await tx.user.deleteMany({ where: { realmId } });
      await tx.realm.deleteMany({ where: { id: realmId } });
    });
    await rm(join(this.options.emojiDir, String(realmId)), { recursive: true, force: true });
    await rm(join(this.options.avatarDir, String(realmId)), { recursive: true, force: true });
  }

  async realms(): Promise<number[]> {
    const rows = await this.options.db.realm.findMany({ select: { id: true } });
    return rows.map((r) => r.id);
  }

  async close(): Promise<void> {
    await this.held.abort();
  }
}

export type { User };
