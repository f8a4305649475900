import { listAlertWords } from './alert-words.js';
import { realmBots } from './bots.js';
import { listProfileFields } from './profile-fields.js';
import type { MeetingProvider } from './meetings/provider.js';
import { listMutedUsers } from './muted-users.js';
import { navigationViewRecord } from './navigation-views.js';
import { peopleSource, type PeopleCache, type PeopleSource } from './people-cache.js';
import type { GroupDirectory, PresenceStore } from './ports.js';
import { realmUserSettingsDefaults } from './realm-user-defaults.js';
import { presenceMap } from './presence.js';
import { listRealmDomains } from './realm-domains.js';
import { listRealmEmoji } from './realm-emoji.js';
import {
  CUSTOM_PROFILE_FIELD_TYPES,
  ownUserState,
  realmSettingsState,
  userCapabilitiesState,
  type RealmStateConfig,
} from './realm-state.js';
import { FEATURE_LEVEL, SERVICE_VERSION } from './server-limits.js';
import { EMOJISETS } from './settings-catalog.js';
import type { Database } from './store.js';
import type { Realm, User } from './types.js';
import { settingsSnapshot } from './user-settings.js';
import { realmStatuses } from './user-status.js';
import { availableNotificationSounds } from './validators.js';

export interface InitialStateContext {
  db: Database;
  meetings: MeetingProvider;
  presence: PresenceStore;
  groups: GroupDirectory;
  config: RealmStateConfig;
  /** The organization's people between their changes (realm_users and the parts that list users). */
  people: PeopleCache;
}

/** The client options of POST /register that shape this service's part. */
export interface StateOptions {
  /** null: everything. */
  fetchEventTypes: readonly string[] | null;
  clientGravatar: boolean;
  slimPresence: boolean;
  presenceHistoryLimitDays?: number | undefined;
  presenceLastUpdateId?: number | undefined;
}

interface Subject {
  user: User;
  realm: Realm;
  /** Everyone in the organization (system bots aside), for the parts that list users. */
  users: () => Promise<User[]>;
  people: PeopleSource;
}

/** One part of the state: the event types that ask for it (Zulip's `want(...)`; null: always sent) and its keys. */
interface Section {
  wantedBy: readonly string[] | null;
  build(ctx: InitialStateContext, subject: Subject, options: StateOptions): Promise<Record<string, unknown>>;
}

const SECTIONS: readonly Section[] = [
  {
    wantedBy: null,
    build: () =>
      Promise.resolve({ zulip_feature_level: FEATURE_LEVEL, zulip_version: SERVICE_VERSION, zulip_merge_base: '' }),
  },
  {
    wantedBy: ['realm'],
    build: async (ctx, { realm, user, users }) => ({
      ...(await realmSettingsState(ctx.db, ctx.config, realm, await users())),
      ...(await userCapabilitiesState(ctx.groups, realm, user)),
    }),
  },
  {
    wantedBy: ['realm_domains'],
    build: async (ctx, { realm }) => ({ realm_domains: await listRealmDomains(ctx.db, realm.id) }),
  },
  {
    wantedBy: ['realm_user_settings_defaults'],
    build: (_ctx, { realm }) => Promise.resolve({ realm_user_settings_defaults: realmUserSettingsDefaults(realm) }),
  },
  {
    wantedBy: ['realm_user'],
    build: async (ctx, { user, realm, people }, options) => ({
      ...ownUserState(user),
      ...(await ctx.people.realmUsers(people, realm.id, options.clientGravatar, user)),
    }),
  },
  {
    wantedBy: ['realm_bot'],
    build: async (ctx, { user, users }) => ({ realm_bots: await realmBots(ctx.db, user, await users()) }),
  },
  {
    wantedBy: ['user_settings'],
    build: async (ctx, { user }) => ({
      user_settings: {
        ...settingsSnapshot(await ctx.db.store.settings.get(user.id), user),
        available_notification_sounds: availableNotificationSounds(),
        emojiset_choices: EMOJISETS.map((e) => ({ key: e.key, text: e.text })),
      },
    }),
  },
  {
    wantedBy: ['navigation_views'],
    build: async (ctx, { user }) => ({
      navigation_views: (await ctx.db.store.navigationViews.list(user.id)).map(navigationViewRecord),
    }),
  },
  {
    wantedBy: ['video_calls', 'has_meetingprovider_token'],
    build: async (ctx, { user }) => ({
      has_meetingprovider_token: await ctx.meetings.hasToken(user),
      meeting_provider: ctx.meetings.kind === 'none' ? null : { name: ctx.meetings.name, kind: ctx.meetings.kind },
    }),
  },
  {
    wantedBy: ['custom_profile_fields'],
    build: async (ctx, { realm }) => ({
      custom_profile_fields: await listProfileFields(ctx.db, realm.id),
      custom_profile_field_types: CUSTOM_PROFILE_FIELD_TYPES,
    }),
  },
  {
    wantedBy: ['alert_words'],
    build: async (ctx, { user }) => ({ alert_words: await listAlertWords(ctx.db, user.id) }),
  },
  {
    wantedBy: ['muted_users'],
    build: async (ctx, { user }) => ({ muted_users: await listMutedUsers(ctx.db, user.id) }),
  },
  {
    wantedBy: ['presence'],
    build: (ctx, { realm, people }, options) =>
      presenceMap({ ...ctx, source: people }, realm, {
        slim: options.slimPresence,
        lastUpdateId: options.presenceLastUpdateId,
        historyLimitDays: options.presenceHistoryLimitDays,
      }),
  },
  {
    wantedBy: ['user_status'],
    build: async (ctx, { user }) => ({ user_status: await realmStatuses(ctx.db, user) }),
  },
  {
    wantedBy: ['realm_emoji'],
    build: async (ctx, { realm }) => ({ realm_emoji: await listRealmEmoji(ctx.db, realm.id) }),
  },
];

const wanted = (section: Section, types: readonly string[] | null) =>
  types === null || section.wantedBy === null || section.wantedBy.some((type) => types.includes(type));

/**
 * The parts of POST /register's answer this service owns, for the events service to merge (its initial-state
 * protocol): only the sections `fetch_event_types` asks for are computed. Null for an unknown user.
 */
export async function initialState(
  ctx: InitialStateContext,
  userId: number,
  options: StateOptions,
): Promise<Record<string, unknown> | null> {
  const { store } = ctx.db;
  const user = await store.users.byId(userId);
  const realm = user && (await store.realms.byId(user.realmId));
  if (!user || !realm) return null;
  // One fingerprint read for the whole answer.
  const people = peopleSource(store);
  let everyone: Promise<User[]> | undefined;
  const subject: Subject = {
    user,
    realm,
    people,
    users: () => (everyone ??= ctx.people.snapshot(people, realm.id).then((s) => s.users)),
  };
  const parts = await Promise.all(
    SECTIONS.filter((s) => wanted(s, options.fetchEventTypes)).map((s) => s.build(ctx, subject, options)),
  );
  return Object.assign({}, ...parts) as Record<string, unknown>;
}
