import { parseParams } from '@confab/http';
import { SETTINGS_PARAMS } from '../src/routes/settings.params';

function parse(fields: Record<string, string>) {
  return parseParams(SETTINGS_PARAMS, { body: new Map(Object.entries(fields)), query: new Map() });
}

const failure = (fields: Record<string, string>) => {
  try {
    parse(fields);
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
};

describe('PATCH /settings parameters', () => {
  it('reads JSON booleans and integers and raw strings', () => {
    const { values, used } = parse({ color_scheme: '2', enter_sends: 'true', emojiset: 'text', full_name: 'Hamlet' });
    expect(values).toMatchObject({ color_scheme: 2, enter_sends: true, emojiset: 'text', full_name: 'Hamlet' });
    expect(values.twenty_four_hour_time).toBeUndefined();
    expect([...used].sort()).toEqual(['color_scheme', 'emojiset', 'enter_sends', 'full_name']);
  });

  it.each([
    [{ color_scheme: '4' }, 'Invalid color_scheme: Value error, Not in the list of possible values'],
    [
      { web_channel_default_view: '3' },
      'Invalid web_channel_default_view: Value error, Not in the list of possible values',
    ],
    [
      { demote_inactive_streams: '0' },
      'Invalid demote_inactive_streams: Value error, Not in the list of possible values',
    ],
    [{ user_list_style: '4' }, 'Invalid user_list_style: Value error, Not in the list of possible values'],
    [
      { web_stream_unreads_count_display_policy: '4' },
      'Invalid web_stream_unreads_count_display_policy: Value error, Not in the list of possible values',
    ],
    [
      { automatically_follow_topics_policy: '5' },
      'Invalid automatically_follow_topics_policy: Value error, Not in the list of possible values',
    ],
    [{ web_home_view: 'recent_topics' }, 'Invalid web_home_view: Value error, Not in the list of possible values'],
    [{ emojiset: 'google-blob' }, 'Invalid emojiset: Value error, Not in the list of possible values'],
    [
      { web_animate_image_previews: 'sometimes' },
      'Invalid web_animate_image_previews: Value error, Not in the list of possible values',
    ],
    [{ resolved_topic_notice_auto_read_policy: 'maybe' }, 'Invalid resolved_topic_notice_auto_read_policy'],
    [{ timezone: 'Mars/Olympus' }, 'Invalid timezone: Value error, Not a recognized time zone'],
    [{ color_scheme: '"2"' }, 'color_scheme is not an integer'],
    [{ color_scheme: 'dark' }, 'color_scheme is not valid JSON'],
    [{ enter_sends: '1' }, 'enter_sends is not a boolean'],
    [{ web_font_size_px: '-1' }, 'web_font_size_px is too small'],
    [{ web_font_size_px: '40000' }, 'web_font_size_px is too large'],
    [{ target_users: '{"skip_if_already_edited": true}' }, 'Either user_ids or group_ids must be provided.'],
    [{ target_users: '{"user_ids": [1]}' }, 'Missing \'target_users["skip_if_already_edited"]\' argument'],
    [
      { target_users: '{"user_ids": ["1"], "skip_if_already_edited": true}' },
      'target_users["user_ids"][0] is not an integer',
    ],
    [{ target_users: '[1]' }, 'target_users is not a dict'],
  ])("refuses %j with Zulip's text", (fields, msg) => {
    expect(failure(fields)).toBe(msg);
  });

  it('accepts every documented value of each enumeration', () => {
    expect(
      failure({
        web_channel_default_view: '4',
        web_home_view: 'recent',
        emojiset: 'twitter',
        web_animate_image_previews: 'never',
      }),
    ).toBeUndefined();
    expect(
      failure({ resolved_topic_notice_auto_read_policy: 'except_followed', timezone: 'Asia/Tokyo' }),
    ).toBeUndefined();
  });

  it('reports the alphabetically first invalid parameter, as Zulip does', () => {
    expect(failure({ user_list_style: '9', color_scheme: '9' })).toBe(
      'Invalid color_scheme: Value error, Not in the list of possible values',
    );
  });

  it('reads target_users with defaults for the missing list', () => {
    const { values } = parse({ target_users: '{"group_ids": [3], "skip_if_already_edited": false, "extra": 1}' });
    expect(values.target_users).toEqual({ user_ids: [], group_ids: [3], skip_if_already_edited: false });
  });
});
