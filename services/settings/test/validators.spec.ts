import {
  checkFullName,
  checkSettingValues,
  isAvailableLanguage,
  isValidTimezone,
  languageName,
} from '../src/domain/validators';
import { isStrongPassword } from '../src/domain/password-strength';
import { resolveSettings, SETTINGS } from '../src/domain/settings-catalog';

const message = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
};

describe('isValidTimezone', () => {
  it.each([
    'America/New_York',
    'Europe/Berlin',
    'UTC',
    'Etc/GMT+5',
    'US/Pacific',
    'Asia/Calcutta',
    'America/Port-au-Prince',
  ])('accepts %s', (zone) => {
    expect(isValidTimezone(zone)).toBe(true);
  });

  it.each(['', 'america/new_york', 'utc', 'Mars/Olympus', '+01:00', 'America/New York', 'Europe/'])(
    'refuses %j',
    (zone) => {
      expect(isValidTimezone(zone)).toBe(false);
    },
  );
});

describe('checkSettingValues', () => {
  it("uses Zulip's texts, in Zulip's order", () => {
    expect(message(() => checkSettingValues({ default_language: 'xx' }))).toBe('Invalid default_language');
    expect(message(() => checkSettingValues({ notification_sound: 'boom' }))).toBe("Invalid notification sound 'boom'");
    expect(message(() => checkSettingValues({ email_notifications_batching_period_seconds: 0 }))).toBe(
      'Invalid email batching period: 0 seconds',
    );
    expect(message(() => checkSettingValues({ email_notifications_batching_period_seconds: 604801 }))).toBe(
      'Invalid email batching period: 604801 seconds',
    );
    expect(message(() => checkSettingValues({ default_language: 'xx', notification_sound: 'boom' }))).toBe(
      'Invalid default_language',
    );
  });

  it('accepts the bounds, "none" and known sounds and languages', () => {
    for (const values of [
      { email_notifications_batching_period_seconds: 1 },
      { email_notifications_batching_period_seconds: 604800 },
      { notification_sound: 'none' },
      { notification_sound: 'ding' },
      { default_language: 'de' },
      { default_language: 'zh-hans' },
    ]) {
      expect(message(() => checkSettingValues(values))).toBeUndefined();
    }
  });

  it('knows the languages by code and their own names', () => {
    expect(isAvailableLanguage('en')).toBe(true);
    expect(isAvailableLanguage('EN')).toBe(false);
    expect(languageName('de')).toBe('Deutsch');
  });
});

describe('checkFullName', () => {
  it('trims and applies Zulip limits', () => {
    expect(checkFullName('  Ophelia  ')).toBe('Ophelia');
    expect(message(() => checkFullName('x'))).toBe('Name too short!');
    expect(message(() => checkFullName('   '))).toBe('Name too short!');
    expect(message(() => checkFullName('a'.repeat(101)))).toBe('Name too long!');
    expect(checkFullName('é'.repeat(100))).toHaveLength(100);
    for (const bad of ['Ham*let', 'Ham`let', 'Ham\\let', 'Ham>let', 'Ham"let', 'Ham@let']) {
      expect(message(() => checkFullName(bad))).toBe('Invalid characters in name!');
    }
  });
});

describe('isStrongPassword', () => {
  const policy = { minLength: 6, minGuesses: 10_000 };

  it('refuses short and easily guessed passwords', () => {
    for (const weak of ['abc12', 'password', 'qwerty123', 'aaaaaaaaaaaaaaaa', 'zaq12wsx'])
      expect(isStrongPassword(weak, policy)).toBe(false);
  });

  it('accepts passwords zxcvbn rates hard enough', () => {
    for (const strong of ['correct horse battery staple', 'xK9#mPq2!vL', 'Tr0ub4dor&3-plus'])
      expect(isStrongPassword(strong, policy)).toBe(true);
  });

  it('follows the configured policy', () => {
    expect(isStrongPassword('xK9#mPq2!vL', { minLength: 20, minGuesses: 0 })).toBe(false);
    expect(isStrongPassword('password', { minLength: 1, minGuesses: 0 })).toBe(true);
  });
});

describe('resolveSettings', () => {
  it("fills Zulip's defaults and ignores stored values of the wrong type or unknown names", () => {
    const resolved = resolveSettings({ color_scheme: 2, emojiset: 7, unknown: true });
    expect(resolved.color_scheme).toBe(2);
    expect(resolved.emojiset).toBe('google');
    expect(resolved).not.toHaveProperty('unknown');
    expect(Object.keys(resolved)).toHaveLength(SETTINGS.length);
    expect(resolved).toMatchObject({
      web_home_view: 'inbox',
      enable_drafts_synchronization: true,
      email_notifications_batching_period_seconds: 120,
      automatically_follow_topics_policy: 3,
      automatically_unmute_topics_in_muted_streams_policy: 2,
      web_channel_default_view: 1,
      user_list_style: 3,
      web_font_size_px: 16,
      web_line_height_percent: 140,
    });
  });
});
