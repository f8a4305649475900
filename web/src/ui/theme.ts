/**
 * Light or dark: the user's color_scheme setting (1 automatic, 2 dark, 3 light); automatic follows the system's
 * preference, also when it changes while the page is open. The stylesheet reads `data-theme` on the root element.
 */
import { effect } from '@preact/signals';
import { settings } from '../store/personal';

const system = window.matchMedia('(prefers-color-scheme: dark)');

export const themeFor = (scheme: number, systemDark: boolean): 'dark' | 'light' =>
  scheme === 2 || (scheme !== 3 && systemDark) ? 'dark' : 'light';

function apply(): void {
  document.documentElement.dataset.theme = themeFor(settings.value.color_scheme, system.matches);
}

system.addEventListener('change', apply);
effect(apply);
