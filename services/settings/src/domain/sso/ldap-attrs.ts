import type { Logger } from '@confab/logging';
import { setDirectoryAvatar, type AvatarContext } from '../avatars.js';
import { checkValue, writeProfileValues, type ProfileValueChange } from '../profile-fields.js';
import type { User } from '../types.js';
import { first } from './ldap.js';
import type { DirectoryEntry } from './ports.js';
import type { LdapSettings } from './settings.js';

/**
 * The rest of Zulip's AUTH_LDAP_USER_ATTR_MAP (CONFAB_LDAP_USER_ATTR_MAP): the avatar from a photo attribute and
 * custom profile fields from their attributes, applied when a directory login makes the account and at each sync
 * (Zulip's sync_avatar_from_ldap and sync_custom_profile_fields_from_ldap). What the entry does not have is left as it
 * is; a photo that is not an image and a value the field refuses are skipped with a log line.
 */

export interface AttributeContext extends AvatarContext {
  logger: Logger;
}

export interface AttributeChanges {
  avatar: boolean;
  profile: boolean;
}

/** A field's name as CONFAB_LDAP_USER_ATTR_MAP's keys write it (Zulip's: lower case, spaces as `_`). */
export const profileFieldKey = (fieldName: string) => fieldName.toLowerCase().split(' ').join('_');

async function syncAvatar(
  ctx: AttributeContext,
  settings: LdapSettings,
  user: User,
  entry: DirectoryEntry,
  requestId: string,
): Promise<boolean> {
  if (!settings.avatarAttr) return false;
  const photo = first(entry, settings.avatarAttr);
  if (photo === undefined) return false;
  const outcome = await setDirectoryAvatar(ctx, user, Buffer.from(photo, 'base64'), requestId);
  if (outcome === 'invalid') {
    ctx.logger.warn({ user_id: user.id, attribute: settings.avatarAttr }, 'LDAP: the photo is not an image; ignored');
  }
  return outcome === 'changed';
}

async function syncProfileFields(
  ctx: AttributeContext,
  settings: LdapSettings,
  user: User,
  entry: DirectoryEntry,
  requestId: string,
): Promise<boolean> {
  const wanted = Object.entries(settings.profileFieldAttrs);
  if (wanted.length === 0) return false;
  const fields = new Map(
    (await ctx.db.store.profileFields.inRealm(user.realmId)).map((field) => [profileFieldKey(field.name), field]),
  );
  const current = new Map(
    (await ctx.db.store.profileFields.valuesOf([user.id]))
      .filter((v) => v.userId === user.id)
      .map((v) => [v.fieldId, v.value]),
  );
  const changes: ProfileValueChange[] = [];
  for (const [key, attr] of wanted) {
    // A field the organization does not have is not an error: organizations of one server differ.
    const field = fields.get(key);
    const value = first(entry, attr)?.trim();
    if (!field || value === undefined || value === '') continue;
    try {
      const checked = await checkValue(ctx.db, user.realmId, field, value);
      if (current.get(field.id) !== checked.value) changes.push({ fieldId: field.id, ...checked });
    } catch (err) {
      ctx.logger.warn(
        { user_id: user.id, field_id: field.id, attribute: attr, reason: (err as Error).message },
        'LDAP: a custom profile field refused the directory value; ignored',
      );
    }
  }
  await writeProfileValues(ctx.db, user.realmId, user.id, changes, requestId);
  return changes.length > 0;
}

/** Applies the entry's photo and profile field values to the user's account; what changed. */
export async function applyEntryAttributes(
  ctx: AttributeContext,
  settings: LdapSettings,
  user: User,
  entry: DirectoryEntry,
  requestId: string,
): Promise<AttributeChanges> {
  return {
    avatar: await syncAvatar(ctx, settings, user, entry, requestId),
    profile: await syncProfileFields(ctx, settings, user, entry, requestId),
  };
}
