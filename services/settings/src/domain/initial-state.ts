import type { MeetingProvider } from './meetings/provider.js';
import { navigationViewRecord } from './navigation-views.js';
import { FEATURE_LEVEL, SERVICE_VERSION, TEXT_LIMITS } from './server-limits.js';
import { EMOJISETS } from './settings-catalog.js';
import type { Database } from './store.js';
import { settingsSnapshot } from './user-settings.js';
import { availableNotificationSounds } from './validators.js';

export interface InitialStateContext {
  db: Database;
  meetings: MeetingProvider;
}

/**
 * The parts of POST /register's answer this service owns, for the events service to merge: `user_settings`, the
 * text limits, the feature level, the empty-topic name, `has_meetingprovider_token` and `navigation_views`.
 */
export async function initialState(ctx: InitialStateContext, userId: number): Promise<Record<string, unknown> | null> {
  const { store } = ctx.db;
  const user = await store.users.byId(userId);
  const realm = user && (await store.realms.byId(user.realmId));
  if (!user || !realm) return null;
  const [stored, views, hasToken] = await Promise.all([
    store.settings.get(user.id),
    store.navigationViews.list(user.id),
    ctx.meetings.hasToken(user),
  ]);
  return {
    user_id: user.id,
    user_settings: {
      ...settingsSnapshot(stored, user),
      available_notification_sounds: availableNotificationSounds(),
      emojiset_choices: EMOJISETS.map((e) => ({ key: e.key, text: e.text })),
    },
    ...TEXT_LIMITS,
    zulip_feature_level: FEATURE_LEVEL,
    zulip_version: SERVICE_VERSION,
    zulip_merge_base: '',
    realm_empty_topic_display_name: realm.emptyTopicDisplayName,
    has_meetingprovider_token: hasToken,
    meeting_provider: ctx.meetings.kind === 'none' ? null : { name: ctx.meetings.name, kind: ctx.meetings.kind },
    navigation_views: views.map(navigationViewRecord),
  };
}

/** Which event type asks for each part (Zulip's `want(...)` in fetch_initial_state_data); others always go. */
const WANTED_BY: Record<string, readonly string[]> = {
  user_id: ['realm_user'],
  user_settings: ['user_settings'],
  navigation_views: ['navigation_views'],
  has_meetingprovider_token: ['video_calls', 'has_meetingprovider_token'],
  meeting_provider: ['video_calls', 'has_meetingprovider_token'],
  realm_empty_topic_display_name: ['realm'],
  ...Object.fromEntries(Object.keys(TEXT_LIMITS).map((key) => [key, ['realm']])),
};

/** The state limited to what `fetch_event_types` asks for (null: everything). */
export function wantedState(state: Record<string, unknown>, fetchEventTypes: readonly string[] | null) {
  if (fetchEventTypes === null) return state;
  return Object.fromEntries(
    Object.entries(state).filter(([key]) => {
      const wantedBy = WANTED_BY[key];
      return wantedBy === undefined || wantedBy.some((type) => fetchEventTypes.includes(type));
    }),
  );
}
