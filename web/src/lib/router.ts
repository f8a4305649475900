/**
 * The router: the view is the URL fragment (Zulip's link forms, lib/hash.ts). Following a link or going Back and
 * Forward changes the fragment, the fragment changes the route signal, the route decides what is shown; a reload
 * starts from the same fragment.
 */
import { signal } from '@preact/signals';
import { parseHash, routeHash, type Route } from './hash';
import { channelId, names } from '../store/store';

export const route = signal<Route>(parseHash(location.hash));

function fromLocation(): void {
  route.value = parseHash(location.hash, channelId);
}

window.addEventListener('hashchange', fromLocation);
window.addEventListener('popstate', fromLocation);

// Links within the page change the route at once (pushState, then the route), so the view is current as soon as the
// click has been handled; Back and Forward come back through popstate/hashchange.
document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return;
  const link = (event.target as Element | null)?.closest?.('a[href^="#"]');
  if (!link) return;
  const href = link.getAttribute('href')!;
  event.preventDefault();
  if (href !== location.hash) history.pushState(null, '', href);
  fromLocation();
});

/** Re-reads the fragment once names are known (an old-style link by channel name). */
export const refreshRoute = fromLocation;

export function navigate(next: Route): void {
  const hash = routeHash(next, names);
  if (location.hash !== hash) history.pushState(null, '', hash);
  fromLocation();
}

export const hrefFor = (next: Route): string => routeHash(next, names);
