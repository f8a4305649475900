import type { DirectoryLogin } from './domain/auth.js';
import type { ProvisioningContext } from './domain/provisioning.js';
import { directoryLogin } from './domain/sso/ldap-login.js';
import type { RedisClient } from '@confab/runtime';
import type { Logger } from '@confab/logging';
import { InvitationsClient } from './adapters/invitations-client.js';
import { LdaptsDirectory } from './adapters/ldap-directory.js';
import { OpenIdClient } from './adapters/oidc-client.js';
import { NodeSamlClient } from './adapters/saml-client.js';
import type { SettingsConfig } from './config.js';
import type { SettingsDeps, SsoServices } from './deps.js';
import { RedisSsoFlowStore } from './repositories/sso-flows.redis.js';

/** The provisioning context of accounts an identity method makes (no password; events as any other). */
export function ssoProvisioning(deps: Pick<SettingsDeps, 'db' | 'config'>, requestId?: string): ProvisioningContext {
  return {
    db: deps.db,
    externalUrl: deps.config.externalUrl,
    passwordHashCost: deps.config.passwordHashCost,
    requestId,
  };
}

/** The directory side of password logins, when LDAP is configured. */
export function directoryLoginOf(deps: SettingsDeps): DirectoryLogin | undefined {
  const ldap = deps.config.sso.ldap;
  if (!ldap || !deps.sso) return undefined;
  return directoryLogin(ssoProvisioning(deps), deps.config.sso, ldap, deps.sso.directory, {
    db: deps.db,
    images: deps.images,
    resizer: deps.resizer,
    logger: deps.logger,
  });
}

/** The adapters of the identity methods (the directory client is cheap: it connects per operation). */
export function buildSsoServices(config: SettingsConfig, redis: RedisClient, logger: Logger): SsoServices {
  return {
    directory: new LdaptsDirectory(),
    oidc: config.sso.oidc.length > 0 ? new OpenIdClient(logger) : undefined,
    saml: config.sso.saml ? new NodeSamlClient(config.sso.saml, logger) : undefined,
    flows: new RedisSsoFlowStore(redis, config.redis.prefix),
    invitations: config.invitationsUrl
      ? new InvitationsClient(config.invitationsUrl, config.internalSecret)
      : undefined,
  };
}
