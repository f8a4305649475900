import { contracts, outboxRecord } from '@confab/events';
import { invalid } from '@confab/errors';
import { ROLE_ADMINISTRATOR, type UserIdentity } from '@confab/identity';
import { adminRequired } from './accounts.js';
import { DEFAULT_EXTERNAL_ACCOUNTS } from './data/external-accounts.js';
import { renderDescription } from './realms.js';
import type { Database } from './store.js';
import type { ProfileField, ProfileFieldValue } from './types.js';

/** Zulip's custom_profile_field_types . */
export const CUSTOM_PROFILE_FIELD_TYPES = {
  SHORT_TEXT: { id: 1, name: 'Text (short)' },
  LONG_TEXT: { id: 2, name: 'Text (long)' },
  SELECT: { id: 3, name: 'List of options' },
  DATE: { id: 4, name: 'Date picker' },
  URL: { id: 5, name: 'Link' },
  USER: { id: 6, name: 'Users' },
  EXTERNAL_ACCOUNT: { id: 7, name: 'External account' },
  PRONOUNS: { id: 8, name: 'Pronouns' },
};

/** Zulip's CustomProfileField limits. */
export const MAX_FIELD_NAME_LENGTH = 40;
export const MAX_FIELD_HINT_LENGTH = 80;
const MAX_DISPLAY_IN_PROFILE_SUMMARY = 2;

const TYPES = CUSTOM_PROFILE_FIELD_TYPES;
const TYPE_IDS = new Set(Object.values(TYPES).map((t) => t.id));

const notFound = (id: number) => invalid(`Field id ${id} not found.`);

/** A field as clients read it (GET /realm/profile_fields, /register, custom_profile_fields events). */
export function profileFieldRecord(field: ProfileField): Record<string, unknown> {
  return {
    id: field.id,
    name: field.name,
    type: field.fieldType,
    hint: field.hint,
    field_data: field.fieldData,
    order: field.order,
    display_in_profile_summary: field.displayInProfileSummary,
    required: field.required,
    editable_by_user: field.editableByUser,
  };
}

/** `profile_data` of users: field id → value (and the rendered value of long text fields). */
export function profileDataOf(
  values: readonly ProfileFieldValue[],
  userId: number,
): Record<string, { value: string; rendered_value?: string }> {
  const out: Record<string, { value: string; rendered_value?: string }> = {};
  for (const v of values) {
    if (v.userId !== userId) continue;
    out[String(v.fieldId)] =
      v.renderedValue === null ? { value: v.value } : { value: v.value, rendered_value: v.renderedValue };
  }
  return out;
}

export async function listProfileFields(db: Database, realmId: number): Promise<Record<string, unknown>[]> {
  return (await db.store.profileFields.inRealm(realmId)).map(profileFieldRecord);
}

/** Zulip's validate_select_field_data / external account data: the field_data text to store. */
function checkFieldData(fieldType: number, data: Record<string, unknown> | undefined): string {
  if (fieldType === TYPES.SELECT.id) {
    const options = data ?? {};
    if (Object.keys(options).length === 0) throw invalid('Field must have at least one choice.');
    for (const [key, option] of Object.entries(options)) {
      if (typeof option !== 'object' || option === null) throw invalid(`field_data["${key}"] is not a dict`);
      const { text, order } = option as Record<string, unknown>;
      if (typeof text !== 'string' || text.trim() === '') throw invalid('Label cannot be blank.');
      if (typeof order !== 'string') throw invalid(`field_data["${key}"]["order"] is not a string`);
    }
    const texts = Object.values(options).map((o) => (o as { text: string }).text);
    if (new Set(texts).size !== texts.length) throw invalid('Field must not have duplicate choices.');
    return JSON.stringify(options);
  }
  if (fieldType === TYPES.EXTERNAL_ACCOUNT.id) {
    const subtype = data?.subtype;
    if (typeof subtype !== 'string') throw invalid('Custom external account must define URL pattern');
    if (subtype === 'custom') {
      const pattern = data?.url_pattern;
      if (typeof pattern !== 'string' || !pattern.includes('%(username)s'))
        throw invalid('Custom external account must define URL pattern');
      return JSON.stringify({ subtype, url_pattern: pattern });
    }
    if (!(subtype in DEFAULT_EXTERNAL_ACCOUNTS)) throw invalid('Invalid external account type');
    return JSON.stringify({ subtype });
  }
  return '';
}

function externalAccountName(data: string): string {
  const subtype = (JSON.parse(data) as { subtype: string }).subtype;
  const known = (DEFAULT_EXTERNAL_ACCOUNTS as Record<string, { name: string }>)[subtype];
  return known?.name ?? '';
}

export interface ProfileFieldSpec {
  name?: string | undefined;
  hint?: string | undefined;
  fieldType?: number | undefined;
  fieldData?: Record<string, unknown> | undefined;
  displayInProfileSummary?: boolean | undefined;
  required?: boolean | undefined;
  editableByUser?: boolean | undefined;
}

function fieldsChanged(realmId: number, fields: readonly ProfileField[], requestId: string) {
  return outboxRecord(
    contracts.customProfileFieldsChanged,
    { realm_id: realmId, fields: fields.map(profileFieldRecord) },
    { realmId, requestId },
  );
}

function checkSummaryLimit(fields: readonly ProfileField[], exceptId?: number): void {
  const shown = fields.filter((f) => f.displayInProfileSummary && f.id !== exceptId).length;
  if (shown >= MAX_DISPLAY_IN_PROFILE_SUMMARY)
    throw invalid(
      `Only ${MAX_DISPLAY_IN_PROFILE_SUMMARY} custom profile fields can be displayed in the profile summary.`,
    );
}

/** POST /realm/profile_fields (Zulip's create_realm_custom_profile_field): administrators only. */
export async function createProfileField(
  db: Database,
  actor: UserIdentity,
  spec: ProfileFieldSpec & { fieldType: number },
  requestId: string,
): Promise<number> {
  if (actor.role > ROLE_ADMINISTRATOR) throw adminRequired();
  if (!TYPE_IDS.has(spec.fieldType)) throw invalid('Invalid field type.');
  const fieldData = checkFieldData(spec.fieldType, spec.fieldData);
  let name = (spec.name ?? '').trim();
  if (spec.fieldType === TYPES.EXTERNAL_ACCOUNT.id && !JSON.parse(fieldData).url_pattern)
    name = externalAccountName(fieldData);
  if (name === '') throw invalid('Label cannot be blank.');
  return db.write(async (store) => {
    const fields = await store.profileFields.inRealm(actor.realmId);
    if (fields.some((f) => f.name === name)) throw invalid('A field with that label already exists.');
    if (spec.displayInProfileSummary) checkSummaryLimit(fields);
    const field = await store.profileFields.create({
      realmId: actor.realmId,
      name,
      hint: spec.hint ?? '',
      fieldType: spec.fieldType,
      fieldData,
      displayInProfileSummary: spec.displayInProfileSummary ?? false,
      required: spec.required ?? false,
      editableByUser: spec.editableByUser ?? true,
    });
    return { result: field.id, events: [fieldsChanged(actor.realmId, [...fields, field], requestId)] };
  });
}

/** PATCH /realm/profile_fields/{field_id} (Zulip's update_realm_custom_profile_field). */
export async function updateProfileField(
  db: Database,
  actor: UserIdentity,
  fieldId: number,
  spec: ProfileFieldSpec,
  requestId: string,
): Promise<void> {
  if (actor.role > ROLE_ADMINISTRATOR) throw adminRequired();
  const field = await db.store.profileFields.byId(fieldId);
  if (!field || field.realmId !== actor.realmId) throw notFound(fieldId);
  const fieldData = spec.fieldData === undefined ? undefined : checkFieldData(field.fieldType, spec.fieldData);
  const name = spec.name?.trim();
  if (name === '' && field.fieldType !== TYPES.EXTERNAL_ACCOUNT.id) throw invalid('Label cannot be blank.');
  await db.write(async (store) => {
    const fields = await store.profileFields.inRealm(actor.realmId);
    if (name && fields.some((f) => f.name === name && f.id !== fieldId))
      throw invalid('A field with that label already exists.');
    if (spec.displayInProfileSummary) checkSummaryLimit(fields, fieldId);
    const updated = await store.profileFields.update(fieldId, {
      ...(name ? { name } : {}),
      ...(spec.hint !== undefined ? { hint: spec.hint } : {}),
      ...(fieldData !== undefined ? { fieldData } : {}),
      ...(spec.displayInProfileSummary !== undefined ? { displayInProfileSummary: spec.displayInProfileSummary } : {}),
      ...(spec.required !== undefined ? { required: spec.required } : {}),
      ...(spec.editableByUser !== undefined ? { editableByUser: spec.editableByUser } : {}),
    });
    const after = fields.map((f) => (f.id === fieldId ? updated : f));
    return { result: undefined, events: [fieldsChanged(actor.realmId, after, requestId)] };
  });
}

/** DELETE /realm/profile_fields/{field_id}: the field and every user's value of it. */
export async function deleteProfileField(
  db: Database,
  actor: UserIdentity,
  fieldId: number,
  requestId: string,
): Promise<void> {
  if (actor.role > ROLE_ADMINISTRATOR) throw adminRequired();
  const field = await db.store.profileFields.byId(fieldId);
  if (!field || field.realmId !== actor.realmId) throw notFound(fieldId);
  await db.write(async (store) => {
    await store.profileFields.remove(fieldId);
    const fields = await store.profileFields.inRealm(actor.realmId);
    return { result: undefined, events: [fieldsChanged(actor.realmId, fields, requestId)] };
  });
}

/** PATCH /realm/profile_fields (Zulip's reorder_realm_custom_profile_fields): every field's id, in the new order. */
export async function reorderProfileFields(
  db: Database,
  actor: UserIdentity,
  order: readonly number[],
  requestId: string,
): Promise<void> {
  if (actor.role > ROLE_ADMINISTRATOR) throw adminRequired();
  await db.write(async (store) => {
    const fields = await store.profileFields.inRealm(actor.realmId);
    const ids = new Set(fields.map((f) => f.id));
    if (order.length !== ids.size || new Set(order).size !== order.length || order.some((id) => !ids.has(id)))
      throw invalid('Invalid order mapping.');
    await store.profileFields.reorder(order);
    const after = order.map((id, index) => ({ ...fields.find((f) => f.id === id)!, order: index }));
    return { result: undefined, events: [fieldsChanged(actor.realmId, after, requestId)] };
  });
}

/** Zulip's validators per field type: the value to store (user lists as JSON text) and its rendering. */
export async function checkValue(
  db: Database,
  realmId: number,
  field: ProfileField,
  value: unknown,
): Promise<{ value: string; renderedValue: string | null }> {
  const name = field.name;
  switch (field.fieldType) {
    case TYPES.USER.id: {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'number' || !Number.isInteger(v)))
        throw invalid(`${name} is not a list`);
      for (const id of value as number[]) {
        const user = await db.store.users.byId(id);
        if (!user || user.realmId !== realmId || !user.isActive) throw invalid(`Invalid user ID: ${id}`);
      }
      return { value: JSON.stringify(value), renderedValue: null };
    }
    case TYPES.SELECT.id: {
      const options = JSON.parse(field.fieldData || '{}') as Record<string, unknown>;
      if (typeof value !== 'string' || !(value in options))
        throw invalid(`'${String(value)}' is not a valid choice for '${name}'.`);
      return { value, renderedValue: null };
    }
    case TYPES.DATE.id:
      if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value)))
        throw invalid(`${name} is not a date`);
      return { value, renderedValue: null };
    case TYPES.URL.id: {
      let ok = false;
      if (typeof value === 'string') {
        try {
          ok = ['http:', 'https:'].includes(new URL(value).protocol);
        } catch {
          ok = false;
        }
      }
      if (!ok) throw invalid(`${name} is not a URL`);
      return { value: value as string, renderedValue: null };
    }
    default: {
      if (typeof value !== 'string') throw invalid(`${name} is not a string`);
      const limit = field.fieldType === TYPES.LONG_TEXT.id ? 500 : 50;
      if ([...value].length > limit) throw invalid(`${name} is too long (limit: ${limit} characters)`);
      // Long text is Markdown in Zulip; Confab renders its paragraphs as plain text.
      return { value, renderedValue: field.fieldType === TYPES.LONG_TEXT.id ? renderDescription(value) : null };
    }
  }
}

/**
 * PATCH /users/me/profile_data (Zulip's update_user_custom_profile_data) and DELETE /users/me/profile_data: the
 * caller's own values (`userId` is the caller); fields an administrator made not editable by users are refused.
 * PATCH /users/{user_id} with `profile_data` (administrators, already checked): another user's values, any field.
 * An empty value (or null) removes the user's value.
 */
export async function updateProfileData(
  db: Database,
  actor: UserIdentity,
  userId: number,
  data: readonly { id: number; value: unknown }[] | null,
  removeIds: readonly number[] | null,
  requestId: string,
): Promise<void> {
  const changes: ProfileValueChange[] = [];
  const fieldOf = async (id: number) => {
    const field = await db.store.profileFields.byId(id);
    if (!field || field.realmId !== actor.realmId) throw notFound(id);
    if (!field.editableByUser && actor.role > ROLE_ADMINISTRATOR)
      throw invalid('You are not allowed to change this field. Contact an administrator to update it.');
    return field;
  };
  for (const item of data ?? []) {
    const field = await fieldOf(item.id);
    const empty = item.value === null || item.value === '' || (Array.isArray(item.value) && item.value.length === 0);
    if (empty) changes.push({ fieldId: field.id, value: null, renderedValue: null });
    else changes.push({ fieldId: field.id, ...(await checkValue(db, actor.realmId, field, item.value)) });
  }
  for (const id of removeIds ?? []) {
    const field = await fieldOf(id);
    changes.push({ fieldId: field.id, value: null, renderedValue: null });
  }
  await writeProfileValues(db, actor.realmId, userId, changes, requestId);
}

/** A change of one field's value of a user: the checked value, or null to remove it. */
export interface ProfileValueChange {
  fieldId: number;
  value: string | null;
  renderedValue: string | null;
}

/** Stores a user's checked values with the `realm_user` update that tells everyone (nothing when there are none). */
export async function writeProfileValues(
  db: Database,
  realmId: number,
  userId: number,
  changes: readonly ProfileValueChange[],
  requestId: string,
): Promise<void> {
  if (changes.length === 0) return;
  await db.write(async (store) => {
    await store.profileFields.setValues(userId, changes);
    const event = outboxRecord(
      contracts.profileDataChanged,
      {
        realm_id: realmId,
        user_id: userId,
        changes: changes.map((c) => ({
          id: c.fieldId,
          value: c.value,
          ...(c.renderedValue === null ? {} : { rendered_value: c.renderedValue }),
        })),
      },
      { realmId, requestId },
    );
    return { result: undefined, events: [event] };
  });
}
