import { initialState, type InitialStateContext } from '../src/domain/initial-state';
import { PeopleCache } from '../src/domain/people-cache';
import type { Database } from '../src/domain/store';
import type { Realm, User } from '../src/domain/types';

const user = { id: 1, realmId: 2, email: 'a@b.c', deliveryEmail: 'a@b.c', role: 400, timezone: '' } as User;
const realm = { id: 2, stringId: '', permissions: {} } as unknown as Realm;

/** Only the stores the asked-for sections read; anything else throws, so unwanted sections are never computed. */
function context(): InitialStateContext {
  const refuse = () => {
    throw new Error('not asked for');
  };
  const db = {
    store: new Proxy(
      {
        users: { byId: () => Promise.resolve(user), inRealm: refuse },
        realms: { byId: () => Promise.resolve(realm) },
        settings: { get: () => Promise.resolve({ userId: 1, values: {}, selfEdited: [] }) },
        navigationViews: { list: () => Promise.resolve([]) },
        alertWords: { list: () => Promise.resolve(['tea']) },
      },
      { get: (target, key: string) => (target as Record<string, unknown>)[key] ?? refuse() },
    ),
  } as unknown as Database;
  return {
    db,
    meetings: { name: 'x', kind: 'none', hasToken: () => Promise.resolve(false), createMeeting: refuse },
    presence: {} as InitialStateContext['presence'],
    groups: {} as InitialStateContext['groups'],
    config: { externalUrl: 'http://localhost', maxFileUploadMib: 25 },
    people: new PeopleCache(),
  };
}

describe('settings initial state: fetch_event_types', () => {
  const options = { clientGravatar: true, slimPresence: false };

  it('computes only the parts the listed event types want, and always the version', async () => {
    const state = await initialState(context(), 1, { ...options, fetchEventTypes: ['user_settings', 'alert_words'] });
    expect(Object.keys(state!).sort()).toEqual([
      'alert_words',
      'user_settings',
      'zulip_feature_level',
      'zulip_merge_base',
      'zulip_version',
    ]);
    expect(state!.alert_words).toEqual(['tea']);
  });

  it('answers null for an unknown user', async () => {
    const ctx = context();
    (ctx.db.store.users as unknown as { byId: () => Promise<null> }).byId = () => Promise.resolve(null);
    expect(await initialState(ctx, 1, { ...options, fetchEventTypes: null })).toBeNull();
  });
});
