/**
 * The sidebar's own state: what is typed in its filter boxes (for this page only) and which sections are collapsed
 * (kept in localStorage, so a reload or the next visit finds them as they were left).
 */
import { signal } from '@preact/signals';

export type SectionName = 'channels' | 'people' | 'bots' | 'groups';

const COLLAPSED_KEY = 'confab.sidebar.collapsed';
const SECTIONS: readonly string[] = ['channels', 'people', 'bots', 'groups'];

/** The collapsed sections as stored (a JSON list of names); anything unreadable or unknown is left out. */
export function parseCollapsed(stored: string | null): Set<SectionName> {
  if (!stored) return new Set();
  try {
    const names: unknown = JSON.parse(stored);
    if (!Array.isArray(names)) return new Set();
    return new Set(names.filter((n): n is SectionName => typeof n === 'string' && SECTIONS.includes(n)));
  } catch {
    return new Set();
  }
}

/** The collapsed sections as they are stored, in a stable order. */
export const storedCollapsed = (collapsed: ReadonlySet<SectionName>): string =>
  JSON.stringify(SECTIONS.filter((n) => collapsed.has(n as SectionName)));

function readStored(): string | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage.getItem(COLLAPSED_KEY);
  } catch {
    // Storage refused (a private window's settings): sections start open.
    return null;
  }
}

export const collapsed = signal<ReadonlySet<SectionName>>(parseCollapsed(readStored()));

/** Opens a collapsed section or collapses an open one, and remembers it. */
export function toggleSection(name: SectionName): void {
  const next = new Set(collapsed.value);
  if (!next.delete(name)) next.add(name);
  collapsed.value = next;
  try {
    localStorage.setItem(COLLAPSED_KEY, storedCollapsed(next));
  } catch {
    // Not remembered; the section still toggles.
  }
}

/** What is typed in "Filter channels" and "Search people". */
export const channelFilter = signal('');
export const peopleSearch = signal('');
