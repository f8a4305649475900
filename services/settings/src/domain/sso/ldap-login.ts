import { deactivateAccount, reactivateAccount, renameAccount } from '../accounts.js';
import { userDeactivated, isValidEmail, type DirectoryLogin } from '../auth.js';
import type { PresenceStore } from '../ports.js';
import type { ProvisioningContext } from '../provisioning.js';
import { applyEntryAttributes, type AttributeContext } from './ldap-attrs.js';
import { entryDisabled, entryEmail, entryFullName, ldapAuthenticate, entryAttributes, listFilter } from './ldap.js';
import { findOrCreateSsoUser } from './login.js';
import { ssoMethodEnabled } from './methods.js';
import { SsoRefused, type Directory, type DirectoryEntry } from './ports.js';
import type { LdapSettings, SsoSettings } from './settings.js';

/**
 * LDAP in the password login of every client (POST /fetch_api_key, the web sign-in, the apps' password forms), and
 * the directory sync (Zulip's sync_ldap_user_data).
 */
export function directoryLogin(
  ctx: ProvisioningContext,
  sso: SsoSettings,
  settings: LdapSettings,
  directory: Directory,
  attributes: AttributeContext,
): DirectoryLogin {
  return {
    enabled: (realm) => ssoMethodEnabled(sso, realm, 'LDAP'),
    async login(realm, username, password) {
      const entry = await ldapAuthenticate(directory, settings, username, password);
      if (!entry) return null;
      if (entryDisabled(settings, entry)) throw userDeactivated();
      const email = entryEmail(settings, entry, username);
      if (!email || !isValidEmail(email)) return null;
      // The directory is trusted for the address: its people get an account on first login, whatever the
      // organization's invitation and domain rules.
      try {
        const { user, created } = await findOrCreateSsoUser(
          ctx,
          realm,
          { email, fullName: entryFullName(settings, entry, email) },
          { autoSignup: true, trustedDirectory: true },
        );
        if (!created) return user;
        // The new account's photo and profile fields; the sign-in goes on whatever they do.
        try {
          await applyEntryAttributes(attributes, settings, user, entry, ctx.requestId ?? 'ldap-login');
        } catch (err) {
          attributes.logger.warn({ err, user_id: user.id }, 'LDAP: could not apply the entry to the new account');
        }
        return (await ctx.db.store.users.byId(user.id)) ?? user;
      } catch (err) {
        if (err instanceof SsoRefused) throw userDeactivated();
        throw err;
      }
    },
  };
}

export interface SyncReport {
  realms: number;
  renamed: number;
  deactivated: number;
  reactivated: number;
  /** Users whose avatar became their entry's photo. */
  avatars: number;
  /** Users some of whose custom profile fields changed. */
  profiles: number;
}

/**
 * One pass of the directory sync over every organization with LDAP on: names follow the directory; accounts whose
 * entry is disabled are deactivated (and reactivated when it is enabled again); accounts with no entry at all are
 * deactivated where LDAP is the organization's only password method (Zulip's LDAP_DEACTIVATE_NON_MATCHING_USERS
 * default). Bots are not directory people and are left alone. Deactivation is the admin API's own
 * (deactivateAccount), so its events end the person's sessions and credentials like any other.
 */
export async function syncDirectory(
  ctx: ProvisioningContext & AttributeContext & { presence: PresenceStore },
  sso: SsoSettings,
  settings: LdapSettings,
  directory: Directory,
  only?: { realmId: number },
): Promise<SyncReport> {
  const entries = await directory.search(settings, listFilter(settings), entryAttributes(settings));
  const byEmail = new Map<string, DirectoryEntry>();
  for (const entry of entries) {
    const email = entryEmail(settings, entry, '');
    if (email) byEmail.set(email.toLowerCase(), entry);
  }
  const report: SyncReport = {
    realms: 0,
    renamed: 0,
    deactivated: 0,
    reactivated: 0,
    avatars: 0,
    profiles: 0,
  };
  const requestId = ctx.requestId ?? 'ldap-sync';
  let afterId = 0;
  const realms = [];
  for (;;) {
    const page = await ctx.db.store.realms.after(afterId, 100);
    if (page.length === 0) break;
    realms.push(...page);
    afterId = page[page.length - 1]!.id;
  }
  for (const realm of realms) {
    if (only && realm.id !== only.realmId) continue;
    if (realm.deactivated || !ssoMethodEnabled(sso, realm, 'LDAP')) continue;
    report.realms++;
    for (const user of await ctx.db.store.users.inRealm(realm.id)) {
      if (user.isBot) continue;
      const entry = byEmail.get(user.deliveryEmail.toLowerCase()) ?? byEmail.get(user.email.toLowerCase());
      const gone = !entry && !realm.emailAuthEnabled;
      const disabled = entry ? entryDisabled(settings, entry) : false;
      try {
        if ((gone || disabled) && user.isActive) {
          await deactivateAccount(ctx, user, requestId);
          report.deactivated++;
          continue;
        }
        if (entry && !disabled && !user.isActive) {
          await reactivateAccount(ctx.db, user, requestId);
          report.reactivated++;
        }
        if (entry && user.isActive) {
          const name = entryFullName(settings, entry, user.deliveryEmail);
          if (await renameAccount(ctx.db, user, name, requestId)) report.renamed++;
          const changed = await applyEntryAttributes(ctx, settings, user, entry, requestId);
          if (changed.avatar) report.avatars++;
          if (changed.profile) report.profiles++;
        }
      } catch (err) {
        ctx.logger.warn({ err, user_id: user.id }, 'LDAP sync: could not update a user');
      }
    }
  }
  return report;
}
