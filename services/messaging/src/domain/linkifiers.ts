import { ConfabError, invalid, organizationAdministratorRequired } from '@confab/errors';
import { contracts, outboxRecord } from '@confab/events';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { isAdmin } from './permissions.js';
import type { StoredLinkifier, LinkifierUnit } from './realm-content-store.js';

export const linkifierDict = (l: StoredLinkifier): contracts.LinkifierRecord => ({
  id: l.id,
  pattern: l.pattern,
  url_template: l.urlTemplate,
});

function requireAdmin(actor: Actor): void {
  if (!isAdmin(actor.user)) throw organizationAdministratorRequired();
}

/** Zulip's ValidationFailureError: the first message, and every error by field in `errors`. */
export function validationFailure(field: string, message: string): ConfabError {
  return invalid(message, 'BAD_REQUEST', { errors: { [field]: [message] } });
}

function validated(domain: Domain, pattern: string, urlTemplate: string): void {
  const problem = domain.linkifierValidator.check(pattern, urlTemplate);
  if (problem) throw validationFailure(problem.field, problem.message);
}

const duplicate = () => validationFailure('__all__', 'Realm filter with this Realm and Pattern already exists.');
const notFound = () => invalid('Linkifier not found.');

/** One change and the `linkifiers.changed` event with the whole list after it (Zulip's notify_linkifiers). */
async function changeAndNotify<T>(domain: Domain, actor: Actor, fn: (unit: LinkifierUnit) => Promise<T>): Promise<T> {
  const result = await domain.db.write(actor.realm.id, async ({ linkifiers }) => {
    const value = await fn(linkifiers);
    const list = await linkifiers.list(actor.realm.id);
    const event = outboxRecord(
      contracts.linkifiersChanged,
      { realm_id: actor.realm.id, realm_linkifiers: list.map(linkifierDict) },
      { realmId: actor.realm.id, requestId: actor.requestId },
    );
    return { result: value, events: [event] };
  });
  domain.directory.forgetLinkifiers(actor.realm.id);
  return result;
}

/** GET /realm/linkifiers. */
export async function listLinkifiers(domain: Domain, actor: Actor) {
  return { linkifiers: (await domain.linkifiers.list(actor.realm.id)).map(linkifierDict) };
}

/** POST /realm/filters. */
export async function addLinkifier(
  domain: Domain,
  actor: Actor,
  pattern: string,
  urlTemplate: string,
): Promise<{ id: number }> {
  requireAdmin(actor);
  validated(domain, pattern, urlTemplate);
  return changeAndNotify(domain, actor, async (unit) => {
    const created = await unit.create(actor.realm.id, pattern, urlTemplate);
    if (!created) throw duplicate();
    return { id: created.id };
  });
}

/** PATCH /realm/filters/{filter_id}. */
export async function updateLinkifier(
  domain: Domain,
  actor: Actor,
  id: number,
  pattern: string,
  urlTemplate: string,
): Promise<void> {
  requireAdmin(actor);
  validated(domain, pattern, urlTemplate);
  await changeAndNotify(domain, actor, async (unit) => {
    const updated = await unit.update(actor.realm.id, id, pattern, urlTemplate);
    if (updated === null) throw duplicate();
    if (!updated) throw notFound();
  });
}

/** DELETE /realm/filters/{filter_id}. */
export async function removeLinkifier(domain: Domain, actor: Actor, id: number): Promise<void> {
  requireAdmin(actor);
  await changeAndNotify(domain, actor, async (unit) => {
    if (!(await unit.delete(actor.realm.id, id))) throw notFound();
  });
}

/** PATCH /realm/linkifiers (Zulip's check_reorder_linkifiers): every linkifier exactly once. */
export async function reorderLinkifiers(domain: Domain, actor: Actor, ids: readonly number[]): Promise<void> {
  requireAdmin(actor);
  if (new Set(ids).size !== ids.length) throw invalid('The ordered list must not contain duplicated linkifiers');
  const existing = await domain.linkifiers.list(actor.realm.id);
  if (ids.length === 0 && existing.length === 0) return;
  const mismatch = () => new ConfabError('The ordered list must enumerate all existing linkifiers exactly once');
  if (existing.length !== ids.length || !existing.every((l) => ids.includes(l.id))) throw mismatch();
  await changeAndNotify(domain, actor, (unit) => unit.reorder(actor.realm.id, ids));
}
