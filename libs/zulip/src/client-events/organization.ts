/** The events about the organization: its settings, default channels, folders, linkifiers, emoji, exports. */
import type { ChannelFolderDict, LinkifierDict, PlaygroundDict, RealmEmojiDict, RealmExportDict } from './records.js';

/** One organization setting (`update`), or several, or the icon and logos (`update_dict`). */
type SettingChange<T extends string> =
  | { type: T; op: 'update'; property: string; value: unknown }
  | { type: T; op: 'update_dict'; property: string; data: Record<string, unknown> };

export type RealmEvent = SettingChange<'realm'>;
/** The organization's defaults for new users' settings. */
export type RealmUserSettingsDefaultsEvent = SettingChange<'realm_user_settings_defaults'>;

export interface DefaultStreamsEvent {
  type: 'default_streams';
  default_streams: number[];
}

export type ChannelFolderEvent =
  | { type: 'channel_folder'; op: 'add'; channel_folder: ChannelFolderDict }
  | { type: 'channel_folder'; op: 'update'; channel_folder_id: number; data: Record<string, unknown> }
  | { type: 'channel_folder'; op: 'reorder'; order: number[] };

export interface RealmLinkifiersEvent {
  type: 'realm_linkifiers';
  realm_linkifiers: LinkifierDict[];
}

/** Deprecated; always empty since URL templates. */
export interface RealmFiltersEvent {
  type: 'realm_filters';
  realm_filters: [string, string, number][];
}

export interface RealmPlaygroundsEvent {
  type: 'realm_playgrounds';
  realm_playgrounds: PlaygroundDict[];
}

export interface RealmEmojiEvent {
  type: 'realm_emoji';
  op: 'update';
  realm_emoji: Record<string, RealmEmojiDict>;
}

export interface RealmExportEvent {
  type: 'realm_export';
  exports: RealmExportDict[];
}

export interface RealmExportConsentEvent {
  type: 'realm_export_consent';
  user_id: number;
  consented: boolean;
}

export interface InvitesChangedEvent {
  type: 'invites_changed';
}

export type RealmDomainsEvent =
  | { type: 'realm_domains'; op: 'add' | 'change'; realm_domain: { domain: string; allow_subdomains: boolean } }
  | { type: 'realm_domains'; op: 'remove'; domain: string };

export interface CustomProfileFieldsEvent {
  type: 'custom_profile_fields';
  fields: Record<string, unknown>[];
}

export type OrganizationEvents =
  | RealmEvent
  | RealmUserSettingsDefaultsEvent
  | DefaultStreamsEvent
  | ChannelFolderEvent
  | RealmLinkifiersEvent
  | RealmFiltersEvent
  | RealmPlaygroundsEvent
  | RealmEmojiEvent
  | RealmExportEvent
  | RealmExportConsentEvent
  | InvitesChangedEvent
  | RealmDomainsEvent
  | CustomProfileFieldsEvent;
