import { contracts, outboxRecord } from '@confab/events';
import { invalid, notFound } from '@confab/errors';
import { ROLE_ADMINISTRATOR, ROLE_GUEST, type UserIdentity } from '@confab/identity';
import { isBuiltInEmojiName } from './emoji.js';
import { contentTypeOf, imageKind } from './images.js';
import { hasRealmPermission } from './permissions.js';
import type { ImageFiles, GroupDirectory } from './ports.js';
import { AlreadyExists, type Database, type Store } from './store.js';
import type { RealmEmoji } from './types.js';

export interface EmojiContext {
  db: Database;
  files: ImageFiles;
  groups: GroupDirectory;
}

/** Zulip's MAX_EMOJI_FILE_SIZE_MIB. */
const MAX_EMOJI_FILE_MIB = 5;

export interface UploadedImage {
  data: Buffer;
}

/** Where Zulip serves a locally stored custom emoji (without authentication, like any static image). */
export function emojiPath(realmId: number, fileName: string): string {
  return `/user_avatars/${realmId}/emoji/images/${fileName}`;
}

export function emojiRecord(emoji: RealmEmoji): contracts.RealmEmojiRecord {
  return {
    id: String(emoji.id),
    name: emoji.name,
    source_url: emojiPath(emoji.realmId, emoji.fileName),
    // Confab stores images as uploaded and makes no still frame of animated ones.
    still_url: null,
    deactivated: emoji.deactivated,
    author_id: emoji.authorId,
  };
}

async function emojiDict(store: Store, realmId: number): Promise<Record<string, contracts.RealmEmojiRecord>> {
  return Object.fromEntries((await store.emoji.inRealm(realmId)).map((e) => [String(e.id), emojiRecord(e)]));
}

/** GET /realm/emoji and `realm_emoji` of POST /register: every custom emoji, deactivated ones too. */
export function listRealmEmoji(db: Database, realmId: number): Promise<Record<string, contracts.RealmEmojiRecord>> {
  return emojiDict(db.store, realmId);
}

/** Zulip's check_valid_emoji_name. */
function checkName(name: string): void {
  if (name === '') throw invalid('Emoji name is missing');
  if (/^[0-9a-z\-_]+$/.test(name)) {
    if (/[-_]$/.test(name)) throw invalid('Emoji names must end with either a letter or digit.');
    return;
  }
  throw invalid('Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.');
}

/** POST /realm/emoji/{emoji_name}: Zulip's checks in Zulip's order, then the image is stored with its row. */
export async function addRealmEmoji(
  ctx: EmojiContext,
  actor: UserIdentity,
  rawName: string,
  files: readonly UploadedImage[],
  requestId: string,
): Promise<void> {
  if (actor.role === ROLE_GUEST) throw invalid('Not allowed for guest users');
  const name = rawName.trim().replaceAll(' ', '_');
  checkName(name);
  const { store } = ctx.db;
  const user = await store.users.byId(actor.userId);
  const realm = user && (await store.realms.byId(user.realmId));
  if (!user || !realm) throw invalid('Account is deactivated');
  if (!(await hasRealmPermission(ctx.groups, realm, user, 'can_add_custom_emoji_group')))
    throw invalid('Insufficient permission');
  const taken = () => invalid('A custom emoji with this name already exists.');
  if (await store.emoji.activeByName(realm.id, name)) throw taken();
  if (files.length !== 1) throw invalid('You must upload exactly one file.');
  if (isBuiltInEmojiName(name) && actor.role > ROLE_ADMINISTRATOR)
    throw invalid('Only administrators can override default emoji.');
  const image = files[0]!.data;
  if (image.length > MAX_EMOJI_FILE_MIB * 1024 * 1024)
    throw invalid(`Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_MIB} MiB`);
  const kind = imageKind(image);
  if (!kind) throw invalid('Invalid image format');
  try {
    await ctx.db.write(async (tx) => {
      const row = await tx.emoji.create({ realmId: realm.id, name, authorId: user.id, isAnimated: kind.animated });
      const fileName = `${row.id}.${kind.extension}`;
      // Written inside the transaction: a failed write leaves no row pointing at a missing image.
      await ctx.files.save(realm.id, fileName, image);
      const emoji = await tx.emoji.setFileName(row.id, fileName);
      const payload = { realm_id: realm.id, emoji: emojiRecord(emoji), realm_emoji: await emojiDict(tx, realm.id) };
      return {
        result: undefined,
        events: [outboxRecord(contracts.realmEmojiAdded, payload, { realmId: realm.id, requestId })],
      };
    });
  } catch (err) {
    if (err instanceof AlreadyExists) throw taken();
    throw err;
  }
}

/** DELETE /realm/emoji/{emoji_name}: deactivates it (old messages keep the image); its author or an administrator. */
export async function deactivateRealmEmoji(
  db: Database,
  actor: UserIdentity,
  name: string,
  requestId: string,
): Promise<void> {
  const emoji = await db.store.emoji.activeByName(actor.realmId, name);
  if (!emoji) throw notFound(`Emoji '${name}' does not exist`);
  if (actor.role > ROLE_ADMINISTRATOR && emoji.authorId !== actor.userId)
    throw invalid('Must be an organization administrator or emoji author');
  await db.write(async (store) => {
    await store.emoji.deactivate(emoji.id);
    const all = await emojiDict(store, actor.realmId);
    const payload = { realm_id: actor.realmId, emoji: all[String(emoji.id)]!, realm_emoji: all };
    return {
      result: undefined,
      events: [outboxRecord(contracts.realmEmojiDeactivated, payload, { realmId: actor.realmId, requestId })],
    };
  });
}

/** The image behind a custom emoji's `source_url`, or null. */
export async function emojiImage(
  ctx: Pick<EmojiContext, 'db' | 'files'>,
  realmId: number,
  fileName: string,
): Promise<{ data: Buffer; contentType: string } | null> {
  if (!/^[0-9]+\.(png|gif|jpg|webp)$/.test(fileName)) return null;
  if (!(await ctx.db.store.emoji.byFileName(realmId, fileName))) return null;
  const data = await ctx.files.read(realmId, fileName);
  return data && { data, contentType: contentTypeOf(fileName) };
}
