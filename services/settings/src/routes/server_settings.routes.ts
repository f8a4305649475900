import { route } from '@confab/http';
import { realmIconUrl } from '../domain/realm-images.js';
import type { SettingsDeps } from '../deps.js';
import { realmForHost } from '../domain/directory.js';
import { realmUrl, shownRealmDescription, subdomainFromHost } from '../domain/realms.js';
import { invalid } from '@confab/errors';
import { FEATURE_LEVEL, SERVICE_VERSION } from '../domain/server-limits.js';
import { externalMethods, serverSettingsFlags } from '../domain/sso/methods.js';

const EXTERNAL_BACKENDS = ['github', 'azuread', 'gitlab', 'apple', 'google', 'saml', 'openid connect'];

export function serverSettingsRoutes(deps: SettingsDeps) {
  return [
    route({
      method: 'GET',
      path: '/server_settings',
      auth: 'public',
      async handler({ req }) {
        const subdomain = subdomainFromHost(req.headers.host, deps.config.externalUrl);
        const realm = await realmForHost(deps.db, req.headers.host, deps.config.externalUrl);
        if (!realm && subdomain !== '') throw invalid('Invalid subdomain');
        const sso = deps.config.sso;
        const flags = serverSettingsFlags(sso, realm);
        const emailEnabled = realm?.emailAuthEnabled ?? true;
        const ldapEnabled = flags.ldap === true;
        // Zulip's password_auth_enabled: the organization's own passwords, or the directory's.
        const authenticationMethods: Record<string, boolean> = {
          password: emailEnabled || ldapEnabled,
          dev: false,
          email: emailEnabled,
          ldap: ldapEnabled,
          remoteuser: false,
        };
        for (const name of EXTERNAL_BACKENDS) authenticationMethods[name] = flags[name] ?? false;
        const userAgent = req.headers['user-agent'] ?? '';
        const result: Record<string, unknown> = {
          authentication_methods: authenticationMethods,
          zulip_version: SERVICE_VERSION,
          zulip_merge_base: '',
          zulip_feature_level: FEATURE_LEVEL,
          service_version: SERVICE_VERSION,
          service_merge_base: '',
          service_feature_level: FEATURE_LEVEL,
          push_notifications_enabled: deps.config.pushEnabled,
          is_incompatible: userAgent.startsWith('ZulipInvalid'),
        };
        if (realm) {
          const url = realmUrl(realm, deps.config.externalUrl);
          Object.assign(result, {
            email_auth_enabled: realm.emailAuthEnabled,
            // With LDAP, people may log in with their directory uid (Zulip's require_email_format_usernames).
            require_email_format_usernames: !ldapEnabled,
            realm_uri: url,
            realm_url: url,
            realm_name: realm.name,
            realm_icon: realmIconUrl(realm),
            realm_description: shownRealmDescription(realm.description, url),
            realm_web_public_access_enabled: false,
            external_authentication_methods: externalMethods(sso, realm),
          });
        }
        return result;
      },
    }),
  ];
}
