import { z } from 'zod';
import { defineEvent } from '../envelope.js';

/**
 * A permission held by a user group: a system group by name (`role:administrators`), which each service resolves
 * through its own copy of the groups, or a group id owned by the groups service.
 */
export const groupRef = z.union([z.string().regex(/^role:[a-z]+$/), z.number().int()]);
export type GroupRef = z.infer<typeof groupRef>;

/** An organization as other services need it (the settings service owns realms). */
export const realmRecord = z.object({
  realm_id: z.number().int(),
  string_id: z.string(),
  name: z.string(),
  description: z.string(),
  url: z.string(),
  date_created: z.string(),
  deactivated: z.boolean(),
  /** Shown to clients for the empty topic ("general chat"). */
  empty_topic_display_name: z.string(),
  /** Channel messages must have a non-empty topic. */
  mandatory_topics: z.boolean(),
  /** Null means no time limit on deleting one's own messages. */
  message_content_delete_limit_seconds: z.number().int().nullable(),
  /** Days before a member counts as a full member. */
  waiting_period_threshold: z.number().int(),
  /** Editing and moving messages (Zulip's defaults until the organization changes them); null limits: none. */
  allow_message_editing: z.boolean().default(true),
  message_content_edit_limit_seconds: z.number().int().nullable().default(600),
  move_messages_within_stream_limit_seconds: z.number().int().nullable().default(604_800),
  move_messages_between_streams_limit_seconds: z.number().int().nullable().default(604_800),
  /** Whether users share presence at all in this organization. */
  presence_disabled: z.boolean().default(false),
  enable_read_receipts: z.boolean().default(false),
  /** The private channel message reports go to (Zulip's moderation_request_channel); null: reporting is off. */
  moderation_request_channel_id: z.number().int().nullable().optional(),
  /** Null: messages are kept forever. */
  message_retention_days: z.number().int().nullable().default(null),
  /** Zulip's inline_image_preview and inline_url_embed_preview: the Markdown renderer's previews. */
  inline_image_preview: z.boolean().default(true),
  inline_url_embed_preview: z.boolean().default(false),
  /** Group-valued organization permissions, keyed by Zulip's setting name without the `realm_` prefix. */
  permissions: z.record(z.string(), groupRef),
});
export type RealmRecord = z.infer<typeof realmRecord>;

export const realmCreated = defineEvent('realm.created', z.object({ realm: realmRecord }));
export const realmUpdated = defineEvent('realm.updated', z.object({ realm: realmRecord }));

/** One of Zulip's `realm` (or `realm_user_settings_defaults`) events about a changed organization setting. */
export const realmClientChange = z.object({
  type: z.enum(['realm', 'realm_user_settings_defaults']),
  op: z.enum(['update', 'update_dict']),
  property: z.string(),
  value: z.unknown().optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});
export type RealmClientChange = z.infer<typeof realmClientChange>;

/** Organization settings changed (PATCH /realm, PATCH /realm/user_settings_defaults): the events clients receive. */
export const realmSettingsChanged = defineEvent(
  'realm_settings.changed',
  z.object({ realm_id: z.number().int(), changes: z.array(realmClientChange) }),
);

/** A bot added, changed or deleted: Zulip's `realm_bot` event, for its owner and the administrators. */
export const realmBotChanged = defineEvent(
  'realm_bot.changed',
  z.object({
    realm_id: z.number().int(),
    owner_id: z.number().int().nullable(),
    op: z.enum(['add', 'update', 'delete']),
    /** Zulip's bot dictionary (whole for `add`, the user id and changed fields for `update`). */
    bot: z.record(z.string(), z.unknown()),
  }),
);

/** The organization's custom profile fields after a change (Zulip's `custom_profile_fields` event). */
export const customProfileFieldsChanged = defineEvent(
  'custom_profile_fields.changed',
  z.object({ realm_id: z.number().int(), fields: z.array(z.record(z.string(), z.unknown())) }),
);

/** A user's values of custom profile fields changed (Zulip's `realm_user` update with custom_profile_field). */
export const profileDataChanged = defineEvent(
  'profile_data.changed',
  z.object({
    realm_id: z.number().int(),
    user_id: z.number().int(),
    changes: z.array(
      z.object({
        id: z.number().int(),
        value: z.string().nullable(),
        rendered_value: z.string().nullable().optional(),
      }),
    ),
  }),
);

/** One of the organization's email domains, as GET /realm/domains lists it (Zulip's RealmDomainDict). */
export const realmDomainRecord = z.object({ domain: z.string(), allow_subdomains: z.boolean() });
export type RealmDomainRecord = z.infer<typeof realmDomainRecord>;

/**
 * An email domain of the organization added, changed (its allow_subdomains) or removed: Zulip's `realm_domains`
 * event, to every member (a removal's event names only the domain).
 */
export const realmDomainsChanged = defineEvent(
  'realm_domains.changed',
  z.object({
    realm_id: z.number().int(),
    op: z.enum(['add', 'change', 'remove']),
    realm_domain: realmDomainRecord,
  }),
);
