import { catalogEntry } from '@confab/integrations/catalog';
import type { ServiceName } from './config.js';

export interface RouteTarget {
  service: ServiceName;
  /** Reachable without credentials (the service still requires the gateway's identity token). */
  public: boolean;
  /**
   * The external image proxy: counted per client address apart from the other public paths, and forwarded without
   * the reader's cookies (nothing of the reader's request reaches the image's host; docs/security.md).
   */
  externalContent?: true;
  /** The request's own Authorization header goes on to the service (SCIM's bearer token, which the service checks). */
  passAuthorization?: boolean;
  /**
   * An incoming webhook (/api/v1/external/{name}): authenticated by its `api_key` parameter, or HTTP Basic for the
   * integrations that take it, with Zulip's webhook texts (app.ts, `webhookCredentials`).
   */
  webhook?: { name: string; basic: boolean };
}

interface Rule {
  match: (path: string) => boolean;
  target: RouteTarget;
}

const exact =
  (...paths: string[]) =>
  (path: string) =>
    paths.includes(path);
const prefix =
  (...prefixes: string[]) =>
  (path: string) =>
    prefixes.some((p) => path === p || path.startsWith(`${p}/`));

const to = (service: ServiceName, isPublic = false): RouteTarget => ({ service, public: isPublic });

/** Which service owns which API path (docs/architecture.md, route ownership); first match wins. */
const API_RULES: Rule[] = [
  {
    match: exact('/server_settings', '/fetch_api_key', '/jwt/fetch_api_key', '/dev_fetch_api_key'),
    target: to('settings', true),
  },
  { match: prefix('/users/me/subscriptions'), target: to('messaging') },
  {
    match: prefix('/users/me/pushservice_device_token', '/users/me/apns_device_token', '/users/me/android_gcm_reg_id'),
    target: to('push'),
  },
  { match: (p) => /^\/users\/me\/[0-9]+\/topics\/?$/.test(p), target: to('messaging') },
  // Whether a user is subscribed to a channel (GET /users/{user_id}/subscriptions/{stream_id}).
  { match: (p) => /^\/users\/[0-9]+\/subscriptions\/[0-9]+\/?$/.test(p), target: to('messaging') },
  {
    match: prefix(
      '/users',
      '/settings',
      '/navigation_views',
      '/calls',
      '/realm/presence',
      '/realm/emoji',
      '/realm/profile_fields',
      '/realm/domains',
      '/realm/user_settings_defaults',
      '/realm/icon',
      '/realm/logo',
      '/bot_storage',
      // Bots are users: settings owns them (and their API keys).
      '/bots',
    ),
    target: to('settings'),
  },
  // Organization settings (PATCH /realm); the paths under /realm are matched by their owners above and below.
  { match: exact('/realm'), target: to('settings') },
  {
    match: prefix(
      '/messages',
      '/drafts',
      '/scheduled_messages',
      '/reminders',
      '/saved_snippets',
      '/user_topics',
      '/attachments',
      '/user_uploads',
      '/typing',
      '/streams',
      '/default_streams',
      '/channel_folders',
      // Linkifiers and code playgrounds: the Markdown renderer applies them (messaging owns them).
      '/realm/linkifiers',
      '/realm/filters',
      '/realm/playgrounds',
      // The welcome bot's test message is a message (sent by the Notification Bot).
      '/realm/test_welcome_bot_custom_message',
      // Organization exports: messaging's worker gathers every service's part.
      '/export/realm',
      '/get_stream_id',
      '/channels',
      '/mark_all_as_read',
      '/mark_stream_as_read',
      '/mark_topic_as_read',
      '/submessage',
    ),
    target: to('messaging'),
  },
  { match: prefix('/user_groups'), target: to('groups') },
  { match: prefix('/invites'), target: to('invitations') },
  { match: prefix('/mobile_push'), target: to('push') },
  { match: exact('/register_client_device', '/remove_client_device'), target: to('push') },
  { match: exact('/register', '/events'), target: to('events') },
];

export const API_PREFIX = '/api/v1';
const WEBHOOK_PREFIX = `${API_PREFIX}/external/`;

/** Zulip's incoming webhooks: one URL per integration of the catalog, owned by the integrations service. */
function webhookRoute(pathname: string): RouteTarget | null {
  const name = pathname.slice(WEBHOOK_PREFIX.length).replace(/\/+$/, '');
  const entry = catalogEntry(name);
  if (!entry) return null;
  return { service: 'integrations', public: false, webhook: { name, basic: entry.auth === 'basic' } };
}

/** The service for a request path, or null when no service owns it. */
export function resolveRoute(pathname: string): RouteTarget | null {
  if (pathname.startsWith(WEBHOOK_PREFIX)) return webhookRoute(pathname);
  if (pathname.startsWith(`${API_PREFIX}/`)) {
    const rest = pathname.slice(API_PREFIX.length).replace(/\/+$/, '') || '/';
    return API_RULES.find((rule) => rule.match(rest))?.target ?? null;
  }
  // Invitation links are pages a browser opens; uploaded files are fetched with credentials.
  if (prefix('/join')(pathname)) return to('invitations', true);
  // Pages a browser opens from a mailed email-change link, a meeting provider's OAuth redirect or a meeting link.
  if (prefix('/accounts/confirm_new_email', '/calls/meetingprovider/complete', '/calls/bigbluebutton/join')(pathname))
    return to('settings', true);
  // Sign-in with the company's identity: where the flows start and where the identity providers send the browser back.
  if (
    prefix('/accounts/login/social', '/accounts/register/social', '/complete')(pathname) ||
    pathname === '/saml/metadata.xml'
  )
    return to('settings', true);
  // SCIM provisioning (Okta, Entra ID): the organization's bearer token is the settings service's to check.
  if (prefix('/scim/v2')(pathname)) return { service: 'settings', public: true, passAuthorization: true };
  // Custom emoji images and the emoji data are static files in Zulip, fetched without credentials.
  if (prefix('/user_avatars', '/static/generated/emoji')(pathname)) return to('settings', true);
  // Images of other hosts in rendered messages, through the image proxy (Zulip's camo, signed URLs, no credentials).
  if (pathname.startsWith('/external_content/')) return { service: 'messaging', public: true, externalContent: true };
  // A temporary upload URL is the credential itself (signed, valid for a minute).
  if (pathname.startsWith('/user_uploads/temporary/')) return to('messaging', true);
  // Inline image previews in rendered messages point at /thumbnail (a redirect to the image).
  if (prefix('/user_uploads')(pathname) || pathname === '/thumbnail') return to('messaging');
  return null;
}
