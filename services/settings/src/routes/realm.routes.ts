import { ParamIssue, p, route, t, type Schema } from '@confab/http';
import type { SettingsDeps } from '../deps.js';
import { checkAuthenticationMethods, setAuthenticationMethods } from '../domain/auth-methods.js';
import { deleteRealmImage, realmIconUrl, uploadRealmImage } from '../domain/realm-images.js';
import { addRealmEmoji, deactivateRealmEmoji, listRealmEmoji } from '../domain/realm-emoji.js';
import { addRealmDomain, changeRealmDomain, listRealmDomains, removeRealmDomain } from '../domain/realm-domains.js';
import { updateRealmSettings, type GroupSettingChange } from '../domain/realm-settings.js';
import { REALM_GROUP_SETTINGS, REALM_PARAMS, USER_DEFAULTS_PARAMS } from './realm.params.js';
import { updateRealmUserSettingsDefaults } from '../domain/realm-user-defaults.js';
import type { SettingValue } from '../domain/settings-catalog.js';
import {
  createProfileField,
  deleteProfileField,
  listProfileFields,
  reorderProfileFields,
  updateProfileField,
} from '../domain/profile-fields.js';

/** A JSON object of any keys (a field's field_data). */
const anyDict: Schema<Record<string, unknown>> = {
  parse(value, loc) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ParamIssue('dict_type', loc);
    return value as Record<string, unknown>;
  },
};

const fieldParams = {
  name: p.string({ maxLength: 40 }).optional(),
  hint: p.string({ maxLength: 80 }).optional(),
  field_data: p.json(anyDict).optional(),
  display_in_profile_summary: p.bool().optional(),
  required: p.bool().optional(),
  editable_by_user: p.bool().optional(),
};

const fieldSpec = (params: {
  name?: string | undefined;
  hint?: string | undefined;
  field_data?: Record<string, unknown> | undefined;
  display_in_profile_summary?: boolean | undefined;
  required?: boolean | undefined;
  editable_by_user?: boolean | undefined;
}) => ({
  name: params.name,
  hint: params.hint,
  fieldData: params.field_data,
  displayInProfileSummary: params.display_in_profile_summary,
  required: params.required,
  editableByUser: params.editable_by_user,
});

/** Organization data every member reads: custom emoji, custom profile fields, email domains and linkifiers. */
export function realmRoutes(deps: SettingsDeps) {
  const images = { db: deps.db, images: deps.images, externalUrl: deps.config.externalUrl };
  return [
    route({
      method: 'PATCH',
      path: '/realm',
      auth: 'user',
      params: REALM_PARAMS,
      async handler({ identity, params, requestId }) {
        const values: Record<string, unknown> = {};
        const groups: Record<string, GroupSettingChange> = {};
        const groupNames = new Set(REALM_GROUP_SETTINGS);
        const methods = params.authentication_methods as Record<string, boolean> | undefined;
        if (methods) await checkAuthenticationMethods(deps.db, identity, methods, deps.config.sso);
        for (const [name, value] of Object.entries(params)) {
          if (value === undefined || name === 'authentication_methods') continue;
          if (groupNames.has(name)) groups[name] = value as GroupSettingChange;
          else values[name] = value;
        }
        const ctx = { db: deps.db, groups: deps.groups, channels: deps.messages, externalUrl: deps.config.externalUrl };
        const { data } = await updateRealmSettings(ctx, identity, { values, groups }, requestId);
        if (methods) await setAuthenticationMethods({ ...ctx, sso: deps.config.sso }, identity, methods, requestId);
        return data;
      },
    }),
    route({
      method: 'PATCH',
      path: '/realm/user_settings_defaults',
      auth: 'user',
      params: USER_DEFAULTS_PARAMS,
      async handler({ identity, params, requestId }) {
        const values: Record<string, SettingValue> = {};
        for (const [name, value] of Object.entries(params))
          if (value !== undefined) values[name] = value as SettingValue;
        await updateRealmUserSettingsDefaults(deps.db, identity, values, requestId);
        return {};
      },
    }),
    route({
      method: 'POST',
      path: '/realm/icon',
      auth: 'user',
      async handler({ identity, body, requestId }) {
        return { icon_url: realmIconUrl(await uploadRealmImage(images, identity, 'icon', body.files, requestId)) };
      },
    }),
    route({
      method: 'DELETE',
      path: '/realm/icon',
      auth: 'user',
      async handler({ identity, requestId }) {
        return { icon_url: realmIconUrl(await deleteRealmImage(images, identity, 'icon', requestId)) };
      },
    }),
    route({
      method: 'POST',
      path: '/realm/logo',
      auth: 'user',
      params: { night: p.bool() },
      async handler({ identity, body, params, requestId }) {
        await uploadRealmImage(images, identity, params.night ? 'night_logo' : 'logo', body.files, requestId);
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path: '/realm/logo',
      auth: 'user',
      params: { night: p.bool() },
      async handler({ identity, params, requestId }) {
        await deleteRealmImage(images, identity, params.night ? 'night_logo' : 'logo', requestId);
        return {};
      },
    }),
    route({
      method: 'GET',
      path: '/realm/emoji',
      auth: 'user',
      async handler({ identity }) {
        return { emoji: await listRealmEmoji(deps.db, identity.realmId) };
      },
    }),
    route({
      // The name may hold anything, slashes too, so that Zulip's name rules answer for it.
      method: 'POST',
      path: '/realm/emoji/{emoji_name:path}',
      auth: 'user',
      async handler({ identity, path, body, requestId }) {
        await addRealmEmoji(deps, identity, path.emoji_name, body.files, requestId);
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path: '/realm/emoji/{emoji_name:path}',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await deactivateRealmEmoji(deps.db, identity, path.emoji_name, requestId);
        return {};
      },
    }),
    route({
      method: 'GET',
      path: '/realm/domains',
      auth: 'user',
      async handler({ identity }) {
        return { domains: await listRealmDomains(deps.db, identity.realmId) };
      },
    }),
    route({
      method: 'POST',
      path: '/realm/domains',
      auth: 'user',
      params: { domain: p.string(), allow_subdomains: p.bool() },
      async handler({ identity, params, requestId }) {
        const newDomain = await addRealmDomain(deps.db, identity, params.domain, params.allow_subdomains, requestId);
        return { new_domain: newDomain };
      },
    }),
    route({
      method: 'PATCH',
      path: '/realm/domains/{domain:str}',
      auth: 'user',
      params: { allow_subdomains: p.bool() },
      async handler({ identity, path, params, requestId }) {
        await changeRealmDomain(deps.db, identity, path.domain, params.allow_subdomains, requestId);
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path: '/realm/domains/{domain:str}',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await removeRealmDomain(deps.db, identity, path.domain, requestId);
        return {};
      },
    }),
    route({
      method: 'GET',
      path: '/realm/profile_fields',
      auth: 'user',
      async handler({ identity }) {
        return { custom_fields: await listProfileFields(deps.db, identity.realmId) };
      },
    }),
    route({
      method: 'POST',
      path: '/realm/profile_fields',
      auth: 'user',
      params: {
        ...fieldParams,
        field_type: p.json(t.int()),
      },
      async handler({ identity, params, requestId }) {
        const id = await createProfileField(
          deps.db,
          identity,
          { ...fieldSpec(params), fieldType: params.field_type },
          requestId,
        );
        return { id };
      },
    }),
    route({
      method: 'PATCH',
      path: '/realm/profile_fields',
      auth: 'user',
      params: { order: p.json(t.list(t.int())) },
      async handler({ identity, params, requestId }) {
        await reorderProfileFields(deps.db, identity, params.order, requestId);
        return {};
      },
    }),
    route({
      method: 'PATCH',
      path: '/realm/profile_fields/{field_id:int}',
      auth: 'user',
      params: fieldParams,
      async handler({ identity, path, params, requestId }) {
        await updateProfileField(deps.db, identity, path.field_id, fieldSpec(params), requestId);
        return {};
      },
    }),
    route({
      method: 'DELETE',
      path: '/realm/profile_fields/{field_id:int}',
      auth: 'user',
      async handler({ identity, path, requestId }) {
        await deleteProfileField(deps.db, identity, path.field_id, requestId);
        return {};
      },
    }),
  ];
}
