/** What the people views say about a person: role, local time, initials, a matching search. */
import { ROLE_LABELS, ROLE_MEMBER, roleLabel } from '@confab/zulip';
import type { User } from '../store/model';

export const roleName = (user: Pick<User, 'role' | 'is_bot'>): string =>
  user.is_bot ? 'Bot' : (roleLabel(user.role ?? ROLE_MEMBER) ?? ROLE_LABELS[ROLE_MEMBER]);

/** The time it is where the person is ("14:05", or "2:05 PM"), or null without a known time zone. */
export function localTime(timezone: string | undefined, now: Date, twentyFourHour: boolean): string | null {
  if (!timezone) return null;
  try {
    return new Intl.DateTimeFormat('en-US', {
      hour: 'numeric',
      minute: '2-digit',
      hourCycle: twentyFourHour ? 'h23' : 'h12',
      timeZone: timezone,
    }).format(now);
  } catch {
    // A zone this browser does not know.
    return null;
  }
}

/** The first letters of a name's first and last words ("Othello, the Moor of Venice" → "OV"). */
export function initials(name: string): string {
  const words = name
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 0) return '?';
  const first = [...words[0]][0];
  const last = words.length > 1 ? [...words[words.length - 1]][0] : '';
  return (first + last).toUpperCase();
}

/** A stable hue for a person's fallback avatar. */
export const avatarHue = (userId: number): number => (userId * 137) % 360;

/** People whose name or address contains every word of the query, in name order. */
export function searchPeople<T extends Pick<User, 'full_name' | 'email'>>(people: Iterable<T>, query: string): T[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return [...people]
    .filter((u) => words.every((w) => u.full_name.toLowerCase().includes(w) || u.email.toLowerCase().includes(w)))
    .sort((a, b) => a.full_name.localeCompare(b.full_name));
}
