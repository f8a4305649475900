import { contracts, outboxRecord } from '@confab/events';
import { invalid, notFound } from '@confab/errors';
import type { UserIdentity } from '@confab/identity';
import { AlreadyExists, type Database } from './store.js';
import type { NavigationView } from './types.js';

/** Zulip's built-in left-sidebar views; they can be pinned or unpinned but not renamed. */
export const BUILT_IN_VIEW_FRAGMENTS: readonly string[] = [
  'inbox',
  'recent',
  'feed',
  'drafts',
  'narrow/has/reaction/sender/me',
  'narrow/is/mentioned',
  'narrow/is/starred',
  'scheduled',
];

// docs/api.md gives the unknown-fragment error the code NOT_FOUND (Zulip itself sends BAD_REQUEST with the 404).
const doesNotExist = () => notFound('Navigation view does not exist.', 'NOT_FOUND');
const alreadyExists = () => invalid('Navigation view already exists.');

export function navigationViewRecord(view: NavigationView): contracts.NavigationViewRecord {
  return { fragment: view.fragment, is_pinned: view.isPinned, name: view.name };
}

const meta = (actor: UserIdentity, requestId: string) => ({ realmId: actor.realmId, requestId });
const owner = (actor: UserIdentity) => ({ user_id: actor.userId, realm_id: actor.realmId });

export async function listNavigationViews(
  db: Database,
  actor: UserIdentity,
): Promise<contracts.NavigationViewRecord[]> {
  return (await db.store.navigationViews.list(actor.userId)).map(navigationViewRecord);
}

/** POST /navigation_views: settings for a built-in view (no name) or a new custom view (a name required). */
export async function addNavigationView(
  db: Database,
  actor: UserIdentity,
  input: { fragment: string; isPinned: boolean; name: string | undefined },
  requestId: string,
): Promise<void> {
  if (BUILT_IN_VIEW_FRAGMENTS.includes(input.fragment)) {
    if (input.name !== undefined) throw invalid('Built-in views cannot have a custom name.');
  } else if (!input.name) {
    throw invalid('Custom views must have a valid name.');
  }
  if (await db.store.navigationViews.find(actor.userId, input.fragment)) throw alreadyExists();
  if (input.name !== undefined && (await db.store.navigationViews.nameTaken(actor.userId, input.name)))
    throw alreadyExists();
  try {
    await db.write(async (store) => {
      const view = await store.navigationViews.create(actor.userId, {
        fragment: input.fragment,
        isPinned: input.isPinned,
        name: input.name ?? null,
      });
      const event = outboxRecord(
        contracts.navigationViewAdded,
        { ...owner(actor), navigation_view: navigationViewRecord(view) },
        meta(actor, requestId),
      );
      return { result: undefined, events: [event] };
    });
  } catch (err) {
    if (err instanceof AlreadyExists) throw alreadyExists();
    throw err;
  }
}

/** PATCH /navigation_views/{fragment}, with Zulip's checks in Zulip's order (name rules before existence). */
export async function updateNavigationView(
  db: Database,
  actor: UserIdentity,
  fragment: string,
  input: { isPinned: boolean | undefined; name: string | undefined },
  requestId: string,
): Promise<void> {
  if (BUILT_IN_VIEW_FRAGMENTS.includes(fragment) && input.name !== undefined)
    throw invalid('Built-in views cannot have a custom name.');
  if (input.name !== undefined && (await db.store.navigationViews.nameTaken(actor.userId, input.name)))
    throw alreadyExists();
  if (!(await db.store.navigationViews.find(actor.userId, fragment))) throw doesNotExist();
  const data: { is_pinned?: boolean; name?: string } = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.isPinned !== undefined) data.is_pinned = input.isPinned;
  try {
    await db.write(async (store) => {
      if (!(await store.navigationViews.update(actor.userId, fragment, { isPinned: input.isPinned, name: input.name })))
        throw doesNotExist();
      const event = outboxRecord(
        contracts.navigationViewUpdated,
        { ...owner(actor), fragment, data },
        meta(actor, requestId),
      );
      return { result: undefined, events: [event] };
    });
  } catch (err) {
    if (err instanceof AlreadyExists) throw alreadyExists();
    throw err;
  }
}

export async function removeNavigationView(
  db: Database,
  actor: UserIdentity,
  fragment: string,
  requestId: string,
): Promise<void> {
  await db.write(async (store) => {
    if (!(await store.navigationViews.remove(actor.userId, fragment))) throw doesNotExist();
    const event = outboxRecord(contracts.navigationViewRemoved, { ...owner(actor), fragment }, meta(actor, requestId));
    return { result: undefined, events: [event] };
  });
}
