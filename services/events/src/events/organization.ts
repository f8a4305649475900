import type { contracts, PayloadOf } from '@confab/events';
import { ROLE_ADMINISTRATOR, ROLE_GUEST, type ClientEvent } from '@confab/zulip';
import { acceptsType } from '../domain/descriptor.js';
import type { Builder, Delivery } from './fanout.js';

/** An event for the organization's queues that take its type and whose user `who` admits (by role). */
function realmWide(realmId: number, type: string, events: Builder, who: (role: number) => boolean = () => true) {
  const build: Builder = (ctx) => (acceptsType(ctx.queue, type) && who(ctx.queue.role) ? events(ctx) : []);
  return [{ realm: realmId, build }] satisfies Delivery[];
}

const nonGuests = (role: number) => role !== ROLE_GUEST;
const administrators = (role: number) => role <= ROLE_ADMINISTRATOR;

/** Zulip's notify_default_streams: the ids of the default channels, to every member but guests. */
export function defaultChannelsChanged(payload: PayloadOf<typeof contracts.defaultChannelsChanged>): Delivery[] {
  const event: ClientEvent = { type: 'default_streams', default_streams: payload.default_streams };
  return realmWide(payload.realm_id, 'default_streams', () => [event], nonGuests);
}

export function channelFolderAdded(payload: PayloadOf<typeof contracts.channelFolderAdded>): Delivery[] {
  const event: ClientEvent = { type: 'channel_folder', op: 'add', channel_folder: payload.channel_folder };
  return realmWide(payload.realm_id, 'channel_folder', () => [event]);
}

export function channelFolderUpdated(payload: PayloadOf<typeof contracts.channelFolderUpdated>): Delivery[] {
  const event: ClientEvent = {
    type: 'channel_folder',
    op: 'update',
    channel_folder_id: payload.channel_folder_id,
    data: payload.data,
  };
  return realmWide(payload.realm_id, 'channel_folder', () => [event]);
}

export function channelFoldersReordered(payload: PayloadOf<typeof contracts.channelFoldersReordered>): Delivery[] {
  const event: ClientEvent = { type: 'channel_folder', op: 'reorder', order: payload.order };
  return realmWide(payload.realm_id, 'channel_folder', () => [event]);
}

/**
 * Zulip's notify_linkifiers: `realm_linkifiers` with the whole list (to clients with the linkifier_url_template
 * capability only), and the deprecated `realm_filters`, which since URL templates (feature level 176) is always
 * empty (its tuples cannot express them).
 */
export function linkifiersChanged(payload: PayloadOf<typeof contracts.linkifiersChanged>): Delivery[] {
  const linkifiers: ClientEvent = { type: 'realm_linkifiers', realm_linkifiers: payload.realm_linkifiers };
  return [
    ...realmWide(payload.realm_id, 'realm_linkifiers', (ctx) =>
      ctx.queue.capabilities.linkifierUrlTemplate ? [linkifiers] : [],
    ),
    ...realmWide(payload.realm_id, 'realm_filters', () => [{ type: 'realm_filters', realm_filters: [] }]),
  ];
}

export function playgroundsChanged(payload: PayloadOf<typeof contracts.playgroundsChanged>): Delivery[] {
  const event: ClientEvent = { type: 'realm_playgrounds', realm_playgrounds: payload.realm_playgrounds };
  return realmWide(payload.realm_id, 'realm_playgrounds', () => [event]);
}

/** Zulip's notify_realm_export: every export of the organization, to its administrators. */
export function realmExportsChanged(payload: PayloadOf<typeof contracts.realmExportsChanged>): Delivery[] {
  const event: ClientEvent = { type: 'realm_export', exports: payload.exports };
  return realmWide(payload.realm_id, 'realm_export', () => [event], administrators);
}

/** Zulip's notify_invites_changed: administrators and the invitation's creator refetch GET /invites. */
export function invitesChanged(payload: PayloadOf<typeof contracts.invitesChanged>): Delivery[] {
  const event: ClientEvent = { type: 'invites_changed' };
  const build: Builder = (ctx) =>
    acceptsType(ctx.queue, 'invites_changed') &&
    (administrators(ctx.queue.role) || ctx.queue.userId === payload.referrer_id)
      ? [event]
      : [];
  return [{ realm: payload.realm_id, build }];
}

/**
 * Zulip's realm_export_consent: a user changed allow_private_data_export (a personal setting), told to the
 * organization's administrators.
 */
export function exportConsentChanged(payload: PayloadOf<typeof contracts.userSettingsChanged>): Delivery[] {
  if (!payload.changed.includes('allow_private_data_export')) return [];
  const event: ClientEvent = {
    type: 'realm_export_consent',
    user_id: payload.user_id,
    consented: payload.settings.allow_private_data_export === true,
  };
  return realmWide(payload.realm_id, 'realm_export_consent', () => [event], administrators);
}

/**
 * Zulip's do_set_realm_property, do_change_realm_permission_group_setting and do_set_realm_user_default_setting:
 * `realm` update / update_dict events and `realm_user_settings_defaults` update events, to everyone.
 */
export function realmSettingsChanged(payload: PayloadOf<typeof contracts.realmSettingsChanged>): Delivery[] {
  const eventOf = (change: (typeof payload.changes)[number]): ClientEvent =>
    change.op === 'update_dict'
      ? { type: change.type, op: change.op, property: change.property, data: change.data ?? {} }
      : { type: change.type, op: change.op, property: change.property, value: change.value ?? null };
  const ofType = (type: string) => payload.changes.filter((c) => c.type === type).map(eventOf);
  const realm = ofType('realm');
  const defaults = ofType('realm_user_settings_defaults');
  return [
    ...(realm.length ? realmWide(payload.realm_id, 'realm', () => realm) : []),
    ...(defaults.length ? realmWide(payload.realm_id, 'realm_user_settings_defaults', () => defaults) : []),
  ];
}

/** Zulip's `realm_domains` events (do_add_realm_domain and its neighbours): to every member of the organization. */
export function realmDomainsChanged(payload: PayloadOf<typeof contracts.realmDomainsChanged>): Delivery[] {
  const { op, realm_domain } = payload;
  const event: ClientEvent =
    op === 'remove'
      ? { type: 'realm_domains', op, domain: realm_domain.domain }
      : { type: 'realm_domains', op, realm_domain: { ...realm_domain } };
  return realmWide(payload.realm_id, 'realm_domains', () => [event]);
}

/** Zulip's realm_bot events: to the bot's owner and the organization's administrators. */
export function realmBotChanged(payload: PayloadOf<typeof contracts.realmBotChanged>): Delivery[] {
  const event: ClientEvent = { type: 'realm_bot', op: payload.op, bot: payload.bot };
  return realmWide(payload.realm_id, 'realm_bot', (ctx) =>
    administrators(ctx.queue.role) || ctx.queue.userId === payload.owner_id ? [event] : [],
  );
}

export function customProfileFieldsChanged(
  payload: PayloadOf<typeof contracts.customProfileFieldsChanged>,
): Delivery[] {
  const event: ClientEvent = { type: 'custom_profile_fields', fields: payload.fields };
  return realmWide(payload.realm_id, 'custom_profile_fields', () => [event]);
}

/** Zulip's notify_user_update_custom_profile_data: one realm_user update per changed field, to everyone. */
export function profileDataChanged(payload: PayloadOf<typeof contracts.profileDataChanged>): Delivery[] {
  const events = payload.changes.map((change): ClientEvent => ({
    type: 'realm_user',
    op: 'update',
    person: {
      user_id: payload.user_id,
      custom_profile_field: {
        id: change.id,
        value: change.value,
        ...(change.rendered_value === undefined ? {} : { rendered_value: change.rendered_value }),
      },
    },
  }));
  return realmWide(payload.realm_id, 'realm_user', () => events);
}
