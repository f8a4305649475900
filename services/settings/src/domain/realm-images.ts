import { createHash } from 'node:crypto';
import { contracts, outboxRecord } from '@confab/events';
import { invalid } from '@confab/errors';
import { ROLE_ADMINISTRATOR, type UserIdentity } from '@confab/identity';
import { adminRequired } from './accounts.js';
import { checkUploadedImage, storedImageName } from './avatars.js';
import type { ImageFiles } from './ports.js';
import { realmUrl } from './realms.js';
import type { Database } from './store.js';
import type { Realm } from './types.js';
import { uploadedAvatarPath } from './users.js';

/**
 * The organization's icon and logos (Zulip's zerver/views/realm_icon.py and realm_logo.py): uploaded by
 * administrators, stored like avatars (as uploaded, not resized) and served from /user_avatars/. Which file is in
 * use is kept in the realm's stored-by-name settings under `<kind>_file` and `<kind>_version`, names that are no
 * organization setting of Zulip's (clients never see them as such).
 */
export type RealmImageKind = 'icon' | 'logo' | 'night_logo';

/** Zulip's MAX_ICON_FILE_SIZE_MIB and MAX_LOGO_FILE_SIZE_MIB. */
export const MAX_REALM_IMAGE_FILE_MIB = 5;

export interface RealmImageContext {
  db: Database;
  images: ImageFiles;
  externalUrl: string;
}

const fileOf = (realm: Pick<Realm, 'settings'>, kind: RealmImageKind) =>
  realm.settings[`${kind}_file`] as string | null | undefined;
const versionOf = (realm: Pick<Realm, 'settings'>, kind: RealmImageKind) =>
  (realm.settings[`${kind}_version`] as number | undefined) ?? 1;

function uploadedUrl(realm: Pick<Realm, 'id' | 'settings'>, kind: RealmImageKind): string | null {
  const file = fileOf(realm, kind);
  return file ? `${uploadedAvatarPath(realm.id, file)}?version=${versionOf(realm, kind)}` : null;
}

/** `realm_icon_url`: the uploaded icon, else Zulip's default, Gravatar's identicon for the subdomain. */
export function realmIconUrl(realm: Pick<Realm, 'id' | 'stringId' | 'settings'>): string {
  const hash = createHash('md5').update(realm.stringId).digest('hex');
  return uploadedUrl(realm, 'icon') ?? `https://secure.gravatar.com/avatar/${hash}?d=identicon`;
}

/** `realm_logo_url` or `realm_night_logo_url`: the uploaded logo, else Zulip's default logo. */
export function realmLogoUrl(realm: Pick<Realm, 'id' | 'settings'>, night: boolean, realmUrl: string): string {
  return uploadedUrl(realm, night ? 'night_logo' : 'logo') ?? `${realmUrl}/static/images/logo/zulip-org-logo.svg`;
}

/** The `realm_icon_*` and `realm_*logo_*` fields of /register. */
export function realmImageState(realm: Realm, realmUrl: string): Record<string, unknown> {
  return {
    realm_icon_url: realmIconUrl(realm),
    realm_icon_source: fileOf(realm, 'icon') ? 'U' : 'G',
    realm_logo_url: realmLogoUrl(realm, false, realmUrl),
    realm_logo_source: fileOf(realm, 'logo') ? 'U' : 'D',
    realm_night_logo_url: realmLogoUrl(realm, true, realmUrl),
    realm_night_logo_source: fileOf(realm, 'night_logo') ? 'U' : 'D',
  };
}

/** Zulip's realm `update_dict` event data for the icon or a logo. */
function eventData(realm: Realm, kind: RealmImageKind, realmUrl: string): Record<string, unknown> {
  const state = realmImageState(realm, realmUrl);
  const prefix = kind === 'icon' ? 'realm_icon' : `realm_${kind}`;
  const name = kind === 'icon' ? 'icon' : kind;
  return { [`${name}_url`]: state[`${prefix}_url`], [`${name}_source`]: state[`${prefix}_source`] };
}

/** Sets (a file name) or removes (null) the icon or a logo, and tells everyone; answers the organization after. */
async function changeRealmImage(
  ctx: RealmImageContext,
  actor: UserIdentity,
  kind: RealmImageKind,
  fileName: string | null,
  requestId: string,
): Promise<Realm> {
  const { before, realm } = await ctx.db.write(async (store) => {
    const current = await store.realms.lock(actor.realmId);
    if (!current) throw invalid('Invalid organization');
    const settings = {
      ...current.settings,
      [`${kind}_file`]: fileName,
      [`${kind}_version`]: versionOf(current, kind) + 1,
    };
    const updated = await store.realms.update(current.id, { settings });
    const url = realmUrl(updated, ctx.externalUrl);
    const change: contracts.RealmClientChange = {
      type: 'realm',
      op: 'update_dict',
      property: kind,
      data: eventData(updated, kind, url),
    };
    return {
      result: { before: fileOf(current, kind) ?? null, realm: updated },
      events: [
        outboxRecord(
          contracts.realmSettingsChanged,
          { realm_id: current.id, changes: [change] },
          { realmId: current.id, requestId },
        ),
      ],
    };
  });
  if (before) await ctx.images.remove(actor.realmId, before);
  return realm;
}

/** POST /realm/icon and POST /realm/logo: Zulip's checks in its order (administrators only). */
export async function uploadRealmImage(
  ctx: RealmImageContext,
  actor: UserIdentity,
  kind: RealmImageKind,
  files: readonly { data: Buffer }[],
  requestId: string,
): Promise<Realm> {
  if (actor.role > ROLE_ADMINISTRATOR) throw adminRequired();
  if (files.length !== 1) throw invalid(`You must upload exactly one ${kind === 'icon' ? 'icon' : 'logo'}.`);
  const image = files[0]!.data;
  const { extension } = checkUploadedImage(image, MAX_REALM_IMAGE_FILE_MIB);
  const fileName = storedImageName(actor.realmId, extension);
  await ctx.images.save(actor.realmId, fileName, image);
  try {
    return await changeRealmImage(ctx, actor, kind, fileName, requestId);
  } catch (err) {
    await ctx.images.remove(actor.realmId, fileName);
    throw err;
  }
}

/** DELETE /realm/icon and DELETE /realm/logo: back to the default (administrators only). */
export function deleteRealmImage(
  ctx: RealmImageContext,
  actor: UserIdentity,
  kind: RealmImageKind,
  requestId: string,
): Promise<Realm> {
  if (actor.role > ROLE_ADMINISTRATOR) throw adminRequired();
  return changeRealmImage(ctx, actor, kind, null, requestId);
}
