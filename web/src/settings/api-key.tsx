/**
 * The user's API key, for bots and scripts: shown after the password is entered again (POST /fetch_api_key, as
 * Zulip's settings do), and regenerated (POST /users/me/api_key/regenerate: the old key stops working at once).
 */
import { useState } from 'preact/hooks';
import * as client from '../lib/client';
import { Outcome, useAction } from '../ui/outcome';

export function ApiKey() {
  const [password, setPassword] = useState('');
  const [key, setKey] = useState('');
  const action = useAction();
  const { ok, error } = action;
  const run = (fetchKey: () => Promise<string>, done: string) => action.run(async () => setKey(await fetchKey()), done);
  const show = async () => {
    const self = await client.me.get();
    const answer = await client.me.fetchApiKey(self.delivery_email ?? self.email, password);
    setPassword('');
    return answer.api_key;
  };
  const regenerate = async () => (await client.me.regenerateApiKey()).api_key;
  return (
    <section aria-labelledby="api-key-heading">
      <h2 id="api-key-heading">API key</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run(show, '');
        }}
      >
        <label for="api-key-password">Your password</label>
        <input
          id="api-key-password"
          type="password"
          autoComplete="current-password"
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <button id="api-key-show" type="submit">
          Show API key
        </button>
      </form>
      {key && (
        <p>
          Your API key: <output class="api-key">{key}</output>
        </p>
      )}
      <button
        id="api-key-regenerate"
        type="button"
        onClick={() => {
          if (window.confirm('Generate a new API key? Scripts and bots using the current one stop working.'))
            void run(regenerate, 'A new API key was generated; the old one no longer works.');
        }}
      >
        Generate a new API key
      </button>
      <Outcome ok={ok} error={error} />
    </section>
  );
}
