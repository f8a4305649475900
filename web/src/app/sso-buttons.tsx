import { useEffect, useState } from 'preact/hooks';
import * as client from '../lib/client';

/**
 * The sign-in page's part of the organization's identity providers (GET /server_settings, as the Zulip apps read it):
 * a button per entry of `external_authentication_methods`, whether password sign-in is on, and whether a directory
 * username (not only an email address) is accepted. A refused sign-in comes back as `?login_error=`.
 */

export interface ExternalMethod {
  name: string;
  display_name: string;
  display_icon: string | null;
  login_url: string;
  signup_url: string;
}

export interface SignInOptions {
  methods: ExternalMethod[];
  password: boolean;
  emailUsernames: boolean;
}

const DEFAULT_OPTIONS: SignInOptions = { methods: [], password: true, emailUsernames: true };

export function useSignInOptions(): SignInOptions | null {
  const [options, setOptions] = useState<SignInOptions | null>(null);
  useEffect(() => {
    client.organization
      .serverSettings()
      .then((s) => {
        const flags = (s.authentication_methods ?? {}) as Record<string, boolean>;
        setOptions({
          methods: Array.isArray(s.external_authentication_methods)
            ? (s.external_authentication_methods as ExternalMethod[])
            : [],
          password: flags.password !== false,
          emailUsernames: s.require_email_format_usernames !== false,
        });
      })
      .catch(() => setOptions(DEFAULT_OPTIONS));
  }, []);
  return options;
}

/** The reason a refused single sign-on flow sent the browser back with. */
export function ssoError(): string {
  return new URLSearchParams(location.search).get('login_error') ?? '';
}

export function SsoButtons({ methods }: { methods: ExternalMethod[] }) {
  if (methods.length === 0) return null;
  // Back to the same place in the client after the provider: the fragment is the route.
  const next = encodeURIComponent(`/${location.hash}`);
  return (
    <div class="sso-buttons" aria-label="Sign in with your organization's identity provider">
      {methods.map((m) => (
        <a
          key={m.name}
          class="sso-button"
          id={`sso-${m.name.replace(/[^A-Za-z0-9_-]/g, '-')}`}
          href={`${m.login_url}?next=${next}`}
        >
          {m.display_icon && <img src={m.display_icon} alt="" width={20} height={20} />}
          Sign in with {m.display_name}
        </a>
      ))}
    </div>
  );
}
