import type { Realm } from './types.js';

/**
 * The organization settings Confab keeps by name in the realm's `settings` map (realm-settings.ts changes them), with
 * Zulip's defaults, and how the rest of the domain reads one.
 */

/** Zulip's video call providers this server offers (Realm.VIDEO_CHAT_PROVIDERS without credentials for the rest). */
export const VIDEO_CHAT_PROVIDERS = {
  disabled: { name: 'None', id: 0 },
  jitsi_meet: { name: 'Jitsi Meet', id: 1 },
} as const;

/** The stored-by-name settings and their defaults (Zulip's model defaults). */
export const REALM_SETTING_DEFAULTS: Record<string, unknown> = {
  avatar_changes_disabled: false,
  default_code_block_language: '',
  default_language: 'en',
  digest_emails_enabled: false,
  digest_weekday: 1,
  disallow_disposable_email_addresses: true,
  emails_restricted_to_domains: false,
  enable_guest_user_dm_warning: true,
  enable_guest_user_indicator: true,
  enable_spectator_access: false,
  giphy_rating: 2,
  inline_image_preview: true,
  inline_url_embed_preview: false,
  invite_required: true,
  jitsi_server_url: null,
  message_content_allowed_in_email_notifications: true,
  message_edit_history_visibility_policy: 'all',
  org_type: 0,
  require_e2ee_push_notifications: false,
  require_unique_names: false,
  send_welcome_emails: true,
  video_chat_provider: VIDEO_CHAT_PROVIDERS.jitsi_meet.id,
  want_advertise_in_communities_directory: false,
  welcome_message_custom_text: '',
  moderation_request_channel_id: -1,
  new_stream_announcements_stream_id: -1,
  signup_announcements_stream_id: -1,
  zulip_update_announcements_stream_id: -1,
};

/** A stored-by-name setting's current value. */
export function realmSetting<T = unknown>(realm: Pick<Realm, 'settings'>, name: string): T {
  return (name in realm.settings ? realm.settings[name] : REALM_SETTING_DEFAULTS[name]) as T;
}

/** The channel id a channel-valued setting holds, null for none (Zulip's -1). */
export function realmChannelSetting(realm: Pick<Realm, 'settings'>, name: string): number | null {
  const value = realmSetting<number>(realm, name);
  return typeof value === 'number' && value > 0 ? value : null;
}
