/** What a form says after it is sent: shared by the pages that have forms (channels, settings, admin). */
import { useState } from 'preact/hooks';
import { ApiError } from '../lib/api';

/** The text to show for a failed request: the server's Zulip message, else the error's own. */
export const errorText = (e: unknown) => (e instanceof ApiError || e instanceof Error ? e.message : String(e));

/** One form's outcome, announced to assistive technology: an alert for an error, a status for success. */
export function Outcome({ error, ok }: { error: string; ok?: string }) {
  if (error)
    return (
      <p role="alert" class="error">
        {error}
      </p>
    );
  if (ok)
    return (
      <p role="status" class="notice">
        {ok}
      </p>
    );
  return null;
}

/**
 * A form's requests and what to say of them: `run` sends one, then holds the success text or the error for
 * `Outcome`, and answers whether it succeeded; `busy` is true while one is under way.
 */
export function useAction() {
  const [ok, setOk] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  async function run(action: () => Promise<unknown>, done: string): Promise<boolean> {
    setOk('');
    setError('');
    setBusy(true);
    try {
      await action();
      setOk(done);
      return true;
    } catch (e) {
      setError(errorText(e));
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { ok, error, busy, run };
}
