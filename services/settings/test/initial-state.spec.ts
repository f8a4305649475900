import { wantedState } from '../src/domain/initial-state';

describe('settings initial state: fetch_event_types', () => {
  const state = {
    user_id: 1,
    user_settings: {},
    navigation_views: [],
    max_message_length: 10000,
    zulip_feature_level: 496,
    has_meetingprovider_token: false,
  };

  it('keeps everything without fetch_event_types', () => {
    expect(wantedState(state, null)).toEqual(state);
  });

  it('keeps only the parts the listed event types want, and the version always', () => {
    expect(wantedState(state, ['user_settings'])).toEqual({ user_settings: {}, zulip_feature_level: 496 });
    expect(Object.keys(wantedState(state, ['realm', 'navigation_views'])).sort()).toEqual([
      'max_message_length',
      'navigation_views',
      'zulip_feature_level',
    ]);
  });
});
