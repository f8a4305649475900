import { contracts, outboxRecord } from '@confab/events';
import { invalid, notFound } from '@confab/errors';
import type { UserIdentity } from '@confab/identity';
import type { NavigationView, NavigationViewRepository } from '../repositories/navigation-views.repository.js';
import { isUniqueViolation } from '../repositories/prisma.js';
import type { SettingsRepository } from '../repositories/settings.repository.js';

export interface NavigationContext {
  repo: SettingsRepository;
  navigationViews: NavigationViewRepository;
}

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

// API.md gives the unknown-fragment error the code NOT_FOUND (Zulip itself sends BAD_REQUEST with the 404).
const doesNotExist = () => notFound('Navigation view does not exist.', 'NOT_FOUND');
const alreadyExists = () => invalid('Navigation view already exists.');

export function navigationViewRecord(view: NavigationView): contracts.NavigationViewRecord {
  return { fragment: view.fragment, is_pinned: view.isPinned, name: view.name };
}

const meta = (actor: UserIdentity, requestId: string) => ({ realmId: actor.realmId, requestId });
const owner = (actor: UserIdentity) => ({ user_id: actor.userId, realm_id: actor.realmId });

export async function listNavigationViews(
  ctx: NavigationContext,
  actor: UserIdentity,
): Promise<contracts.NavigationViewRecord[]> {
  return (await ctx.navigationViews.list(actor.userId)).map(navigationViewRecord);
}

/** POST /navigation_views: settings for a built-in view (no name) or a new custom view (a name required). */
export async function addNavigationView(
  ctx: NavigationContext,
  actor: UserIdentity,
  input: { fragment: string; isPinned: boolean; name: string | undefined },
  requestId: string,
): Promise<void> {
  if (BUILT_IN_VIEW_FRAGMENTS.includes(input.fragment)) {
    if (input.name !== undefined) throw invalid('Built-in views cannot have a custom name.');
  } else if (!input.name) {
    throw invalid('Custom views must have a valid name.');
  }
  if (await ctx.navigationViews.find(actor.userId, input.fragment)) throw alreadyExists();
  if (input.name !== undefined && (await ctx.navigationViews.nameTaken(actor.userId, input.name)))
    throw alreadyExists();
  try {
    await ctx.repo.transaction(async (tx) => {
      const view = await ctx.navigationViews.create(tx, actor.userId, {
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
    if (isUniqueViolation(err)) throw alreadyExists();
    throw err;
  }
}

/** PATCH /navigation_views/{fragment}, with Zulip's checks in Zulip's order (name rules before existence). */
export async function updateNavigationView(
  ctx: NavigationContext,
  actor: UserIdentity,
  fragment: string,
  input: { isPinned: boolean | undefined; name: string | undefined },
  requestId: string,
): Promise<void> {
  if (BUILT_IN_VIEW_FRAGMENTS.includes(fragment) && input.name !== undefined)
    throw invalid('Built-in views cannot have a custom name.');
  if (input.name !== undefined && (await ctx.navigationViews.nameTaken(actor.userId, input.name)))
    throw alreadyExists();
  if (!(await ctx.navigationViews.find(actor.userId, fragment))) throw doesNotExist();
  const data: { is_pinned?: boolean; name?: string } = {};
  if (input.name !== undefined) data.name = input.name;
  if (input.isPinned !== undefined) data.is_pinned = input.isPinned;
  try {
    await ctx.repo.transaction(async (tx) => {
      if (
        !(await ctx.navigationViews.update(tx, actor.userId, fragment, { isPinned: input.isPinned, name: input.name }))
      )
        throw doesNotExist();
      const event = outboxRecord(
        contracts.navigationViewUpdated,
        { ...owner(actor), fragment, data },
        meta(actor, requestId),
      );
      return { result: undefined, events: [event] };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw alreadyExists();
    throw err;
  }
}

export async function removeNavigationView(
  ctx: NavigationContext,
  actor: UserIdentity,
  fragment: string,
  requestId: string,
): Promise<void> {
  await ctx.repo.transaction(async (tx) => {
    if (!(await ctx.navigationViews.remove(tx, actor.userId, fragment))) throw doesNotExist();
    const event = outboxRecord(contracts.navigationViewRemoved, { ...owner(actor), fragment }, meta(actor, requestId));
    return { result: undefined, events: [event] };
  });
}
