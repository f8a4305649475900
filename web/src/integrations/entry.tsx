/** The bots and integrations page, loaded on first use: the catalog and the page are not part of the first view. */
import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { errorText, Outcome } from '../ui/outcome';

export function BotsView() {
  const [Page, setPage] = useState<ComponentType | null>(null);
  const [error, setError] = useState('');
  useEffect(() => {
    import('./bots').then((module) => setPage(() => module.default)).catch((e: unknown) => setError(errorText(e)));
  }, []);
  if (Page) return <Page />;
  return (
    <main class="settings-page" aria-label="Bots">
      {error ? <Outcome error={error} /> : <p>Loading bots and integrations…</p>}
    </main>
  );
}
