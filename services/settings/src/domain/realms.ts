import { contracts } from '@confab/events';
import { renderMarkdown } from '@confab/markdown';
import { realmChannelSetting, realmSetting } from './realm-setting-defaults.js';
import type { GroupRef, Realm } from './types.js';

/** Zulip's defaults for the group-valued organization permissions, by system group name. */
export const DEFAULT_REALM_PERMISSIONS: Record<string, GroupRef> = {
  can_access_all_users_group: 'role:everyone',
  can_add_custom_emoji_group: 'role:members',
  can_add_subscribers_group: 'role:members',
  can_create_bots_group: 'role:members',
  can_create_groups: 'role:members',
  can_create_private_channel_group: 'role:members',
  can_create_public_channel_group: 'role:members',
  can_create_web_public_channel_group: 'role:owners',
  can_delete_any_message_group: 'role:administrators',
  can_delete_own_message_group: 'role:everyone',
  can_invite_users_group: 'role:members',
  can_manage_all_groups: 'role:owners',
  can_mention_many_users_group: 'role:administrators',
  can_create_write_only_bots_group: 'role:members',
  can_manage_billing_group: 'role:administrators',
  can_move_messages_between_channels_group: 'role:members',
  can_move_messages_between_topics_group: 'role:everyone',
  can_resolve_topics_group: 'role:everyone',
  can_set_delete_message_policy_group: 'role:moderators',
  can_set_topics_policy_group: 'role:members',
  can_summarize_topics_group: 'role:everyone',
  create_multiuse_invite_group: 'role:administrators',
  direct_message_initiator_group: 'role:everyone',
  direct_message_permission_group: 'role:everyone',
};

/** Every group-valued permission of the organization: what it set, and Zulip's default for the rest. */
export function realmPermissions(realm: Pick<Realm, 'permissions'>): Record<string, GroupRef> {
  return { ...DEFAULT_REALM_PERMISSIONS, ...realm.permissions };
}

/** Subdomains are lower-case letters, digits and dashes; '' is the server's default organization. */
export function isValidSubdomain(stringId: string): boolean {
  return stringId === '' || /^[a-z0-9]([a-z0-9-]{0,38}[a-z0-9])?$/.test(stringId);
}

/**
 * The organization a request is for, from its Host header: `<subdomain>.<external host>` names a subdomain, the
 * external host itself (or any other name, such as 127.0.0.1) the default organization.
 */
export function subdomainFromHost(host: string | undefined, externalUrl: string): string {
  if (!host) return '';
  const hostname = host.replace(/:\d+$/, '').toLowerCase();
  const base = new URL(externalUrl).hostname.toLowerCase();
  if (hostname.endsWith(`.${base}`)) return hostname.slice(0, -(base.length + 1));
  return '';
}

export function realmUrl(realm: Pick<Realm, 'stringId'>, externalUrl: string): string {
  if (realm.stringId === '') return externalUrl;
  const url = new URL(externalUrl);
  url.hostname = `${realm.stringId}.${url.hostname}`;
  return url.toString().replace(/\/+$/, '');
}

export function realmRecord(realm: Realm, externalUrl: string): contracts.RealmRecord {
  return {
    realm_id: realm.id,
    string_id: realm.stringId,
    name: realm.name,
    description: realm.description,
    url: realmUrl(realm, externalUrl),
    date_created: realm.dateCreated.toISOString(),
    deactivated: realm.deactivated,
    empty_topic_display_name: realm.emptyTopicDisplayName,
    mandatory_topics: realm.mandatoryTopics,
    message_content_delete_limit_seconds: realm.messageContentDeleteLimitSeconds,
    waiting_period_threshold: realm.waitingPeriodThreshold,
    allow_message_editing: realm.allowMessageEditing,
    message_content_edit_limit_seconds: realm.messageContentEditLimitSeconds,
    move_messages_within_stream_limit_seconds: realm.moveMessagesWithinStreamLimitSeconds,
    move_messages_between_streams_limit_seconds: realm.moveMessagesBetweenStreamsLimitSeconds,
    presence_disabled: realm.presenceDisabled,
    enable_read_receipts: realm.enableReadReceipts,
    moderation_request_channel_id: realmChannelSetting(realm, 'moderation_request_channel_id'),
    message_retention_days: realm.messageRetentionDays,
    inline_image_preview: realmSetting<boolean>(realm, 'inline_image_preview'),
    inline_url_embed_preview: realmSetting<boolean>(realm, 'inline_url_embed_preview'),
    permissions: realmPermissions(realm),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Rendered descriptions by organization URL and Markdown. */
const renderedDescriptions = new Map<string, string>();

/**
 * The organization's description as HTML: Zulip's render_realm_description (the message Markdown renderer, with
 * links to the organization relative); empty stays empty.
 */
export function renderRealmDescription(description: string, realmUrl: string): string {
  if (!description) return '';
  // Every /register shows it: each description is rendered once per process (Zulip stores the rendering).
  const key = `${realmUrl}\n${description}`;
  let html = renderedDescriptions.get(key);
  if (html === undefined) {
    html = renderMarkdown(description, { realmUrl: realmUrl.replace(/\/$/, '') });
    if (renderedDescriptions.size >= 1000) renderedDescriptions.clear();
    renderedDescriptions.set(key, html);
  }
  return html;
}

/** What /server_settings shows for the description: Zulip's get_realm_rendered_description, with its default. */
export function shownRealmDescription(description: string, realmUrl: string): string {
  return renderRealmDescription(description, realmUrl) || '<p>The coolest place in the universe.</p>';
}

/** Plain text as HTML paragraphs, one per blank-line block (custom profile fields' long text). */
export function renderDescription(description: string): string {
  const paragraphs = description
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  return paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>\n')}</p>`).join('\n');
}
