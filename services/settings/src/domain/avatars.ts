import { randomBytes } from 'node:crypto';
import { contracts, outboxRecord } from '@confab/events';
import { invalid } from '@confab/errors';
import { ROLE_ADMINISTRATOR, type UserIdentity } from '@confab/identity';
import { contentTypeOf, imageKind } from './images.js';
import type { ImageFiles } from './ports.js';
import { realmSetting } from './realm-settings.js';
import type { Database } from './store.js';
import type { User } from './types.js';
import { avatarUrl } from './users.js';

export interface AvatarContext {
  db: Database;
  images: ImageFiles;
}

/** Zulip's MAX_AVATAR_FILE_SIZE_MIB (also `max_avatar_file_size_mib` of /register). */
export const MAX_AVATAR_FILE_MIB = 5;

/** An uploaded image file's name as Confab stores it: chosen here, never reused, so served as immutable. */
const STORED_NAME = /^[0-9]+-[0-9a-f]{16}\.(png|gif|jpg|webp)$/;

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
  const data = await images.read(realmId, fileName);
  return data && { data, contentType: contentTypeOf(fileName) };
}

async function checkMayChangeAvatar(db: Database, actor: UserIdentity): Promise<void> {
  const realm = await db.store.realms.byId(actor.realmId);
  if (realm && realmSetting<boolean>(realm, 'avatar_changes_disabled') && actor.role > ROLE_ADMINISTRATOR)
    throw invalid('Avatar changes are disabled in this organization.');
}

/** Zulip's do_change_avatar_fields: the new picture (or none) and a `realm_user` update to everyone. */
async function changeAvatar(
  ctx: AvatarContext,
  actor: UserIdentity,
  fileName: string | null,
  requestId: string,
): Promise<User> {
  const { before, after } = await ctx.db.write(async (store) => {
    const current = await store.users.lock(actor.userId);
    const user = await store.users.setAvatar(actor.userId, fileName);
    const payload = {
      user_id: user.id,
      realm_id: user.realmId,
      avatar_source: user.avatarFile ? ('U' as const) : ('G' as const),
      avatar_url: avatarUrl(user),
      avatar_version: user.avatarVersion,
    };
    return {
      result: { before: current?.avatarFile ?? null, after: user },
      events: [outboxRecord(contracts.userAvatarChanged, payload, { realmId: user.realmId, requestId })],
    };
  });
  // The replaced picture is no longer anyone's: its file goes once the change is in force.
  if (before) await ctx.images.remove(actor.realmId, before);
  return after;
}

/** POST /users/me/avatar: Zulip's set_avatar_backend (checks in its order), stored as uploaded (not resized). */
export async function setAvatar(
  ctx: AvatarContext,
  actor: UserIdentity,
  files: readonly { data: Buffer }[],
  requestId: string,
): Promise<{ avatar_url: string }> {
  if (files.length !== 1) throw invalid('You must upload exactly one avatar.');
  await checkMayChangeAvatar(ctx.db, actor);
  const image = files[0]!.data;
  const { extension } = checkUploadedImage(image, MAX_AVATAR_FILE_MIB);
  const fileName = storedImageName(actor.userId, extension);
  await ctx.images.save(actor.realmId, fileName, image);
  try {
    return { avatar_url: avatarUrl(await changeAvatar(ctx, actor, fileName, requestId)) };
  } catch (err) {
    await ctx.images.remove(actor.realmId, fileName);
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
  return { avatar_url: avatarUrl(await changeAvatar(ctx, actor, null, requestId)) };
}
