/**
 * The settings page's parts about signing in: "How you sign in" (every member: one's email and the ways the
 * organization allows) and "Authentication methods" (the organization's methods, each a checkbox that owners switch
 * with PATCH /realm; others see them read-only). Both read the store (`realm_authentication_methods`, kept current by
 * realm events), and the providers' display names from /server_settings, read again when the methods change.
 */
import { computed } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import * as client from '../lib/client';
import { realmSettings } from '../store/admin';
import { me, users } from '../store/store';
import { Outcome, useAction } from '../ui/outcome';
import {
  canChangeMethods,
  methodRows,
  parseMethods,
  passwordLoginEnabled,
  signInWays,
  stillPending,
  switched,
  withoutKey,
  type ExternalProvider,
} from './methods';
import './auth-methods.css';

/** The organization's methods, as the store has them. */
export const authMethods = computed(() => parseMethods(realmSettings.value.realm_authentication_methods));
/** Whether the "Change password" form belongs on the page. */
export const passwordEnabled = computed(() => passwordLoginEnabled(authMethods.value));

/** The providers `/server_settings` lists for this organization, read again whenever the methods change. */
function useProviders(): ExternalProvider[] {
  const [providers, setProviders] = useState<ExternalProvider[]>([]);
  const key = JSON.stringify(authMethods.value);
  useEffect(() => {
    let current = true;
    client.organization
      .serverSettings()
      .then((s) => {
        const list = Array.isArray(s.external_authentication_methods) ? s.external_authentication_methods : [];
        if (current) setProviders(list as ExternalProvider[]);
      })
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, [key]);
  return providers;
}

/** Account settings: one's email and every way the organization allows to sign in. */
export function HowYouSignIn({ email }: { email: string }) {
  const ways = signInWays(authMethods.value, useProviders());
  return (
    <section aria-labelledby="sign-in-heading" class="how-you-sign-in">
      <h2 id="sign-in-heading">How you sign in</h2>
      <p>
        Your email: <strong id="sign-in-email">{email}</strong>
      </p>
      {ways.length === 0 ? (
        <p>This organization has no sign-in method enabled.</p>
      ) : (
        <>
          <p id="sign-in-ways-label">This organization lets you sign in with:</p>
          <ul class="sign-in-ways" aria-labelledby="sign-in-ways-label">
            {ways.map((way) => (
              <li key={way}>{way}</li>
            ))}
          </ul>
        </>
      )}
      {!passwordEnabled.value && <p id="sign-in-no-password">Password sign-in is turned off for this organization.</p>}
    </section>
  );
}

/** Organization settings: each method's on/off state; owners switch one with PATCH /realm, Zulip's refusal shown. */
export function AuthenticationMethods() {
  const methods = authMethods.value;
  const rows = methodRows(methods, useProviders());
  const editable = canChangeMethods(users.value.get(me.value)?.role);
  const { ok, error, busy, run } = useAction();
  // The box one just switched shows the new state until the server's event brings it (or its refusal undoes it).
  const [pending, setPending] = useState<Record<string, boolean>>({});
  const key = JSON.stringify(methods);
  useEffect(() => setPending((p) => stillPending(p, methods)), [key]);
  const change = (name: string, label: string, on: boolean) => {
    const wanted = switched(methods, name, on, pending);
    setPending((p) => ({ ...p, [name]: on }));
    void run(
      () => client.organization.edit({ authentication_methods: wanted }),
      `${label}: ${on ? 'enabled' : 'disabled'}`,
    ).then((done) => {
      if (!done) setPending((p) => withoutKey(p, name));
    });
  };
  return (
    <section aria-labelledby="auth-methods-heading" class="auth-methods">
      <h2 id="auth-methods-heading">Authentication methods</h2>
      {!editable && <p id="auth-methods-readonly">Only organization owners can change these.</p>}
      <ul>
        {rows.map((row) => (
          <li key={row.key} data-auth-method={row.key}>
            <label class="check">
              <input
                type="checkbox"
                checked={pending[row.key] ?? row.enabled}
                disabled={!editable || busy || !row.available}
                onChange={(e) => change(row.key, row.label, e.currentTarget.checked)}
              />
              {row.label}
            </label>
            {row.providers.length > 0 && <span class="providers">{row.providers.join(', ')}</span>}
            {!row.available && row.unavailableReason && <span class="unavailable">{row.unavailableReason}</span>}
          </li>
        ))}
      </ul>
      <Outcome ok={ok} error={error} />
    </section>
  );
}
