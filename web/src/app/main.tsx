import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiError, login } from '../lib/api';
import * as client from '../lib/client';
import { ChatApp } from './chat';
import { signInError } from './sign-in-error';
import { ssoError, SsoButtons, useSignInOptions } from './sso-buttons';
import './style.css';
import '../ui/theme';
import '../ui/density';

function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  // The sign-up page links here with the new account's address.
  const [email, setEmail] = useState(() => new URLSearchParams(location.search).get('email') ?? '');
  const [password, setPassword] = useState('');
  const [error, setError] = useState(ssoError);
  const [busy, setBusy] = useState(false);
  const options = useSignInOptions();
  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      await login(email, password);
      setPassword('');
      if (location.search) history.replaceState(null, '', `/${location.hash}`);
      onSignedIn();
    } catch (err) {
      setError(signInError(err));
    } finally {
      setBusy(false);
    }
  }
  return (
    <main class="signin">
      <h1>Sign in to Confab</h1>
      {options && <SsoButtons methods={options.methods} />}
      {options && !options.password && error && (
        <p id="signin-error" role="alert" class="error">
          {error}
        </p>
      )}
      {options?.password !== false && (
        <form onSubmit={(e) => void submit(e)} aria-describedby={error ? 'signin-error' : undefined}>
          <label for="email">{options?.emailUsernames === false ? 'Email or username' : 'Email'}</label>
          <input
            id="email"
            type={options?.emailUsernames === false ? 'text' : 'email'}
            autoComplete="username"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
          <label for="password">Password</label>
          <input
            id="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
          {error && (
            <p id="signin-error" role="alert" class="error">
              {error}
            </p>
          )}
          <button id="signin" type="submit" disabled={busy}>
            Sign in
          </button>
        </form>
      )}
    </main>
  );
}

function Root() {
  const [state, setState] = useState<'checking' | 'out' | 'in'>('checking');
  useEffect(() => {
    // Without the session's CSRF cookie there is no session: no request (and no 401 in the console) to find that out.
    if (!/(?:^|;\s*)confab_csrftoken=[^;]/.test(document.cookie)) return setState('out');
    client.me.get().then(
      () => setState('in'),
      (err: unknown) => setState(err instanceof ApiError && err.status === 401 ? 'out' : 'out'),
    );
  }, []);
  if (state === 'checking') return <p class="loading">Loading…</p>;
  if (state === 'out') return <SignIn onSignedIn={() => setState('in')} />;
  return <ChatApp onSignedOut={() => setState('out')} />;
}

render(<Root />, document.getElementById('app')!);
