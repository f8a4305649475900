import { enterAction } from '../src/keyboard/keys';
import { shownStatus, STATUS_PRESETS, statusParams } from '../src/settings/status-data';
import { densityTokens } from '../src/ui/density-tokens';

const enter = (mods: Partial<KeyboardEvent> = {}) => ({
  key: 'Enter',
  shiftKey: false,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  isComposing: false,
  ...mods,
});

describe('Enter or Ctrl+Enter sends (enter_sends, as Zulip)', () => {
  it('with enter_sends, Enter sends, Shift+Enter is the field’s new line, Ctrl/⌘/Alt+Enter puts one in', () => {
    expect(enterAction(enter(), true)).toBe('send');
    expect(enterAction(enter({ shiftKey: true }), true)).toBeNull();
    expect(enterAction(enter({ ctrlKey: true }), true)).toBe('newline');
    expect(enterAction(enter({ metaKey: true }), true)).toBe('newline');
    expect(enterAction(enter({ altKey: true }), true)).toBe('newline');
  });

  it('without it, Ctrl/⌘/Alt+Enter sends, Enter and Shift+Enter are new lines', () => {
    expect(enterAction(enter(), false)).toBeNull();
    expect(enterAction(enter({ shiftKey: true }), false)).toBeNull();
    expect(enterAction(enter({ ctrlKey: true }), false)).toBe('send');
    expect(enterAction(enter({ metaKey: true }), false)).toBe('send');
    expect(enterAction(enter({ ctrlKey: true, shiftKey: true }), false)).toBe('send');
  });

  it('leaves other keys, and Enter while an input method composes, alone', () => {
    expect(enterAction({ ...enter(), key: 'a' }, true)).toBeNull();
    expect(enterAction(enter({ isComposing: true }), true)).toBeNull();
    expect(enterAction(enter({ isComposing: true, ctrlKey: true }), false)).toBeNull();
  });
});

describe('information density', () => {
  it('turns the font size and line height into the message view’s tokens', () => {
    expect(densityTokens(16, 140)).toEqual({ fontSize: '16px', lineHeight: '1.4' });
    expect(densityTokens(14, 122)).toEqual({ fontSize: '14px', lineHeight: '1.22' });
  });

  it('falls back to Zulip’s defaults for missing or absurd values', () => {
    expect(densityTokens(undefined, undefined)).toEqual({ fontSize: '16px', lineHeight: '1.4' });
    expect(densityTokens(0, 9000)).toEqual({ fontSize: '16px', lineHeight: '1.4' });
    expect(densityTokens('18', 130)).toEqual({ fontSize: '16px', lineHeight: '1.3' });
  });
});

describe('status', () => {
  it('shows nothing for no status or one cleared with empty strings (the event’s form)', () => {
    expect(shownStatus(undefined)).toBeNull();
    expect(shownStatus({})).toBeNull();
    expect(shownStatus({ status_text: '', emoji_name: '', emoji_code: '', reaction_type: '' })).toBeNull();
    expect(shownStatus({ away: true })).toBeNull();
  });

  it('shows the text, the emoji, or both', () => {
    expect(shownStatus({ status_text: ' Sailing ' })).toEqual({ text: 'Sailing', emoji: null });
    expect(shownStatus({ emoji_name: 'bus', emoji_code: '1f68c', reaction_type: 'unicode_emoji' })).toEqual({
      text: '',
      emoji: { emoji_name: 'bus', emoji_code: '1f68c', reaction_type: 'unicode_emoji' },
    });
    expect(shownStatus({ status_text: 'Out', emoji_name: 'bus', emoji_code: '1f68c' })?.emoji?.reaction_type).toBe(
      'unicode_emoji',
    );
  });

  it('sets with every field, and clears with empty ones, as Zulip’s client does', () => {
    const meeting = STATUS_PRESETS.find((p) => p.text === 'In a meeting')!;
    expect(statusParams(' In a meeting ', meeting.emoji)).toEqual({
      status_text: 'In a meeting',
      emoji_name: 'calendar',
      emoji_code: '1f4c6',
      reaction_type: 'unicode_emoji',
    });
    expect(statusParams('', null)).toEqual({ status_text: '', emoji_name: '', emoji_code: '', reaction_type: '' });
  });

  it("offers Zulip's presets", () => {
    expect(STATUS_PRESETS.map((p) => p.text)).toEqual([
      'Busy',
      'In a meeting',
      'Commuting',
      'Out sick',
      'Vacationing',
      'Working remotely',
      'At the office',
    ]);
  });
});
