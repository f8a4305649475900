import { invalid } from '@confab/errors';
import { LANGUAGES } from './data/languages.js';
import { NOTIFICATION_SOUNDS } from './data/sounds.js';

const LANGUAGE_NAMES = new Map(LANGUAGES.map((l) => [l.code, l.name]));
const SOUNDS = new Set(NOTIFICATION_SOUNDS);

/** Zulip's limit on email batching: more than 0 seconds, at most one week. */
export const MAX_EMAIL_BATCHING_PERIOD_SECONDS = 7 * 24 * 60 * 60;

/**
 * An IANA time zone name, as the runtime's ICU data knows them (aliases such as US/Pacific included). ICU accepts
 * names in any case, IANA's spelling does not: every component starts with a capital ("America/Port-au-Prince").
 */
export function isValidTimezone(name: string): boolean {
  if (!name.split('/').every((part) => /^[A-Z]/.test(part))) return false;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return false;
  }
  return resolved === name || resolved.toLowerCase() !== name.toLowerCase();
}

export function isAvailableLanguage(code: string): boolean {
  return LANGUAGE_NAMES.has(code);
}

/** The language's own name (Zulip sends it with a default_language change). */
export function languageName(code: string): string | undefined {
  return LANGUAGE_NAMES.get(code);
}

export function availableNotificationSounds(): string[] {
  return [...NOTIFICATION_SOUNDS];
}

/** Zulip's check_settings_values, in its order, with its texts. */
export function checkSettingValues(values: {
  default_language?: unknown;
  notification_sound?: unknown;
  email_notifications_batching_period_seconds?: unknown;
}): void {
  const language = values.default_language;
  if (typeof language === 'string' && !isAvailableLanguage(language)) throw invalid('Invalid default_language');
  const sound = values.notification_sound;
  if (typeof sound === 'string' && sound !== 'none' && !SOUNDS.has(sound))
    throw invalid(`Invalid notification sound '${sound}'`);
  const period = values.email_notifications_batching_period_seconds;
  if (typeof period === 'number' && (period <= 0 || period > MAX_EMAIL_BATCHING_PERIOD_SECONDS)) {
    throw invalid(`Invalid email batching period: ${period} seconds`);
  }
}

export const MAX_NAME_LENGTH = 100;
export const MIN_NAME_LENGTH = 2;
const NAME_INVALID_CHARS = ['*', '`', '\\', '>', '"', '@'];

function isNonCharacter(cp: number): boolean {
  return (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe;
}

/** Zulip's check_string_is_printable: no control, surrogate or non-character code point. */
function printable(text: string): boolean {
  for (const ch of text) {
    if (/^[\p{Cc}\p{Cs}]$/u.test(ch) || isNonCharacter(ch.codePointAt(0)!)) return false;
  }
  return true;
}

/**
 * Zulip's check_full_name: surrounding whitespace dropped, 2 to 100 characters, printable (no NUL or other
 * control character), none of * ` \ > " @.
 */
export function checkFullName(raw: string): string {
  const name = raw.trim();
  const length = [...name].length;
  if (length > MAX_NAME_LENGTH) throw invalid('Name too long!');
  if (length < MIN_NAME_LENGTH) throw invalid('Name too short!');
  if (!printable(name) || NAME_INVALID_CHARS.some((c) => name.includes(c))) {
    throw invalid('Invalid characters in name!');
  }
  return name;
}
