import { invalid, organizationAdministratorRequired } from '@confab/errors';
import { contracts, outboxRecord } from '@confab/events';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { validationFailure } from './linkifiers.js';
import { isAdmin } from './permissions.js';
import type { StoredPlayground, PlaygroundUnit } from './realm-content-store.js';

/** Zulip's RealmPlayground.MAX_PYGMENTS_LANGUAGE_LENGTH and PLAYGROUND_LANGUAGE_REGEX. */
const MAX_LANGUAGE_LENGTH = 40;
const LANGUAGE = /^[a-z0-9_+\-./#]+$/;

export const playgroundDict = (p: StoredPlayground): contracts.PlaygroundRecord => ({
  id: p.id,
  name: p.name,
  pygments_language: p.pygmentsLanguage,
  url_template: p.urlTemplate,
});

/** Zulip's full_clean of a RealmPlayground, first error first. */
function check(domain: Domain, input: { name: string; pygmentsLanguage: string; urlTemplate: string }): void {
  const language = input.pygmentsLanguage;
  if (input.name === '') throw validationFailure('name', 'This field cannot be blank.');
  if (language === '') throw validationFailure('pygments_language', 'This field cannot be blank.');
  if ([...language].length > MAX_LANGUAGE_LENGTH)
    throw validationFailure(
      'pygments_language',
      `Ensure this value has at most ${MAX_LANGUAGE_LENGTH} characters (it has ${[...language].length}).`,
    );
  if (!LANGUAGE.test(language)) throw validationFailure('pygments_language', 'Invalid characters in pygments language');
  const variables = domain.linkifierValidator.variables(input.urlTemplate);
  if (variables === null) throw validationFailure('url_template', 'Invalid URL template.');
  if (!variables.has('code'))
    throw validationFailure('__all__', 'Missing the required variable "code" in the URL template');
  if (variables.size !== 1)
    throw validationFailure('__all__', '"code" should be the only variable present in the URL template');
}

async function changeAndNotify<T>(domain: Domain, actor: Actor, fn: (unit: PlaygroundUnit) => Promise<T>) {
  return domain.db.write(actor.realm.id, async ({ playgrounds }) => {
    const result = await fn(playgrounds);
    const event = outboxRecord(
      contracts.playgroundsChanged,
      { realm_id: actor.realm.id, realm_playgrounds: (await playgrounds.list(actor.realm.id)).map(playgroundDict) },
      { realmId: actor.realm.id, requestId: actor.requestId },
    );
    return { result, events: [event] };
  });
}

/** POST /realm/playgrounds (Zulip's add_realm_playground). */
export async function addPlayground(
  domain: Domain,
  actor: Actor,
  input: { name: string; pygmentsLanguage: string; urlTemplate: string },
): Promise<{ id: number }> {
  if (!isAdmin(actor.user)) throw organizationAdministratorRequired();
  check(domain, input);
  return changeAndNotify(domain, actor, async (unit) => {
    const created = await unit.create({ realmId: actor.realm.id, ...input });
    if (!created)
      throw validationFailure(
        '__all__',
        'Realm playground with this Realm, Pygments language and Name already exists.',
      );
    return { id: created.id };
  });
}

/** DELETE /realm/playgrounds/{playground_id}. */
export async function removePlayground(domain: Domain, actor: Actor, id: number): Promise<void> {
  if (!isAdmin(actor.user)) throw organizationAdministratorRequired();
  await changeAndNotify(domain, actor, async (unit) => {
    if (!(await unit.delete(actor.realm.id, id))) throw invalid('Invalid playground');
  });
}
