/** What a form says after it is sent: shared by the pages that have forms (channels, settings). */
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
