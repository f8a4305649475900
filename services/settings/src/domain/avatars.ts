import { createHash, randomBytes } from 'node:crypto';
import { contracts, outboxRecord } from '@confab/events';
import { invalid } from '@confab/errors';
import { ROLE_ADMINISTRATOR, type UserIdentity } from '@confab/identity';
import { contentTypeOf, imageKind } from './images.js';
import type { ImageFiles, ImageResizer } from './ports.js';
import { realmSetting } from './realm-setting-defaults.js';
import type { Database } from './store.js';
import type { User } from './types.js';
import { avatarUrl } from './users.js';

export interface AvatarContext {
  db: Database;
  images: ImageFiles;
  resizer: ImageResizer;
}

/** Zulip's DEFAULT_AVATAR_SIZE and MEDIUM_AVATAR_SIZE (zerver/lib/thumbnail.py), in pixels. */
export const AVATAR_SIZE = 100;
export const MEDIUM_AVATAR_SIZE = 500;

/** Zulip's MAX_AVATAR_FILE_SIZE_MIB (also `max_avatar_file_size_mib` of /register). */
export const MAX_AVATAR_FILE_MIB = 5;

/**
 * An uploaded image file's name as Confab stores it: chosen here, never reused, so served as immutable. Avatars are
 * `<name>.png` (100×100) with `<name>-medium.png` (500×500) beside it, as Zulip names its resized avatars.
 */
const STORED_NAME = /^[0-9]+-[0-9a-f]{16}(-medium)?\.(png|gif|jpg|webp)$/;

/** The medium avatar's file name beside the default one. */
export function mediumAvatarName(fileName: string): string {
  return fileName.replace(/\.png$/, '-medium.png');
}

/** Zulip's checks of an uploaded image (size, then whether it is an image at all). */
export function checkUploadedImage(data: Buffer, maxMib: number): { extension: string } {
  if (data.length > maxMib * 1024 * 1024)
    throw invalid(`Uploaded file is larger than the allowed limit of ${maxMib} MiB`);
  const kind = imageKind(data);
  if (!kind) throw invalid('Could not decode image; did you upload an image file?', 'BAD_IMAGE');
  return kind;
}

/** A new file name for an image of `ownerId` (a user, or the organization's icon and logo). */
export function storedImageName(ownerId: number, extension: string): string {
  return `${ownerId}-${randomBytes(8).toString('hex')}.${extension}`;
}

/** A stored image by its file name, or null (a name Confab never gives, or a file since replaced). */
export async function storedImage(
  images: ImageFiles,
  realmId: number,
  fileName: string,
): Promise<{ data: Buffer; contentType: string } | null> {
  if (!STORED_NAME.test(fileName)) return null;
  let data = await images.read(realmId, fileName);
  // Avatars uploaded before they were resized have no medium file: the one picture serves both.
  if (!data && fileName.endsWith('-medium.png'))
    data = await images.read(realmId, fileName.replace(/-medium\.png$/, '.png'));
  return data && { data, contentType: contentTypeOf(fileName) };
}

async function checkMayChangeAvatar(db: Database, actor: UserIdentity): Promise<void> {
  const realm = await db.store.realms.byId(actor.realmId);
  if (realm && realmSetting<boolean>(realm, 'avatar_changes_disabled') && actor.role > ROLE_ADMINISTRATOR)
    throw invalid('Avatar changes are disabled in this organization.');
}

/**
 * Zulip's do_change_avatar_fields: the new picture (or none) and a `realm_user` update to everyone. Null when the user
 * already has exactly this picture (nothing changes, no event).
 */
async function changeAvatar(
  ctx: AvatarContext,
  owner: { userId: number; realmId: number },
  fileName: string | null,
  requestId: string,
): Promise<User | null> {
  const { before, after } = await ctx.db.write<{ before: string | null; after: User | null }>(async (store) => {
    const current = await store.users.lock(owner.userId);
    if (fileName !== null && current?.avatarFile === fileName)
      return { result: { before: null, after: null }, events: [] };
    const user = await store.users.setAvatar(owner.userId, fileName);
    const payload = {
      user_id: user.id,
      realm_id: user.realmId,
      avatar_source: user.avatarFile ? ('U' as const) : ('G' as const),
      avatar_url: avatarUrl(user),
      avatar_url_medium: avatarUrl(user, true),
      avatar_version: user.avatarVersion,
    };
    return {
      result: { before: current?.avatarFile ?? null, after: user },
      events: [outboxRecord(contracts.userAvatarChanged, payload, { realmId: user.realmId, requestId })],
    };
  });
  // The replaced picture is no longer anyone's: its files go once the change is in force.
  if (before) await removeAvatarFiles(ctx.images, owner.realmId, before);
  return after;
}

async function removeAvatarFiles(images: ImageFiles, realmId: number, fileName: string): Promise<void> {
  await images.remove(realmId, fileName);
  if (fileName.endsWith('.png')) await images.remove(realmId, mediumAvatarName(fileName));
}

/** Zulip's upload_avatar_image: the 100×100 and 500×500 PNGs, cropped to the centre; false when not decodable. */
async function storeResized(ctx: AvatarContext, realmId: number, image: Buffer, fileName: string): Promise<boolean> {
  const [small, medium] = await Promise.all([
    ctx.resizer.squarePng(image, AVATAR_SIZE),
    ctx.resizer.squarePng(image, MEDIUM_AVATAR_SIZE),
  ]);
  if (!small || !medium) return false;
  await ctx.images.save(realmId, fileName, small);
  await ctx.images.save(realmId, mediumAvatarName(fileName), medium);
  return true;
}

/**
 * POST /users/me/avatar: Zulip's set_avatar_backend (checks in its order) and upload_avatar_image: stored as a square
 * 100×100 PNG and a 500×500 medium one, cropped to the centre.
 */
export async function setAvatar(
  ctx: AvatarContext,
  actor: UserIdentity,
  files: readonly { data: Buffer }[],
  requestId: string,
): Promise<{ avatar_url: string }> {
  if (files.length !== 1) throw invalid('You must upload exactly one avatar.');
  await checkMayChangeAvatar(ctx.db, actor);
  const image = files[0]!.data;
  checkUploadedImage(image, MAX_AVATAR_FILE_MIB);
  const fileName = storedImageName(actor.userId, 'png');
  if (!(await storeResized(ctx, actor.realmId, image, fileName)))
    throw invalid('Could not decode image; did you upload an image file?', 'BAD_IMAGE');
  try {
    return { avatar_url: avatarUrl((await changeAvatar(ctx, actor, fileName, requestId))!) };
  } catch (err) {
    await removeAvatarFiles(ctx.images, actor.realmId, fileName);
    throw err;
  }
}

/**
 * The organization's directory's photo of the user (LDAP's jpegPhoto, Zulip's sync_avatar_from_ldap) as their
 * uploaded avatar, stored as an upload is; whether the organization lets users change their avatars is not asked (the
 * directory is the organization's own). The file is named after the photo's content: the same photo at the next sync
 * is the avatar the user already has and changes nothing. A photo that is not an image changes nothing either.
 */
export async function setDirectoryAvatar(
  ctx: AvatarContext,
  user: User,
  photo: Buffer,
  requestId: string,
): Promise<'changed' | 'unchanged' | 'invalid'> {
  const fileName = `${user.id}-${createHash('sha256').update(photo).digest('hex').slice(0, 16)}.png`;
  if (user.avatarFile === fileName) return 'unchanged';
  if (photo.length > MAX_AVATAR_FILE_MIB * 1024 * 1024 || !imageKind(photo)) return 'invalid';
  if (!(await storeResized(ctx, user.realmId, photo, fileName))) return 'invalid';
  const owner = { userId: user.id, realmId: user.realmId };
  try {
    return (await changeAvatar(ctx, owner, fileName, requestId)) ? 'changed' : 'unchanged';
  } catch (err) {
    // The same photo may be the avatar already (another sync at once): its files stay then.
    if ((await ctx.db.store.users.byId(user.id))?.avatarFile !== fileName)
      await removeAvatarFiles(ctx.images, user.realmId, fileName);
    throw err;
  }
}

/** DELETE /users/me/avatar: back to the default picture (Zulip's Gravatar URL, which Confab's web client never loads). */
export async function deleteAvatar(
  ctx: AvatarContext,
  actor: UserIdentity,
  requestId: string,
): Promise<{ avatar_url: string }> {
  await checkMayChangeAvatar(ctx.db, actor);
  const after = (await changeAvatar(ctx, actor, null, requestId))!;
  return { avatar_url: avatarUrl(after) };
}
