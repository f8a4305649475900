import { contracts, outboxRecord } from '@confab/events';
import { invalid } from '@confab/errors';
import type { UserIdentity } from '@confab/identity';
import type { Database, Store } from './store.js';

const MAX_WORD_LENGTH = 100;

/** Zulip's clean_alert_words: surrounding whitespace trimmed, empty words dropped. */
function clean(words: readonly string[]): string[] {
  return words.map((w) => w.trim()).filter((w) => w !== '');
}

/** GET /users/me/alert_words and `alert_words` of POST /register. */
export function listAlertWords(db: Database, userId: number): Promise<string[]> {
  return db.store.alertWords.list(userId);
}

async function change(
  db: Database,
  actor: UserIdentity,
  requestId: string,
  apply: (store: Store, current: string[]) => Promise<void>,
): Promise<string[]> {
  return db.write(async (store) => {
    // One change at a time per user, so two requests cannot add the same word twice.
    await store.users.lock(actor.userId);
    await apply(store, await store.alertWords.list(actor.userId));
    const words = await store.alertWords.list(actor.userId);
    const event = outboxRecord(
      contracts.alertWordsChanged,
      { user_id: actor.userId, realm_id: actor.realmId, alert_words: words },
      { realmId: actor.realmId, requestId },
    );
    return { result: words, events: [event] };
  });
}

/** POST /users/me/alert_words: new words are added once each, case-insensitively; the answer lists them all. */
export async function addAlertWords(
  db: Database,
  actor: UserIdentity,
  words: readonly string[],
  requestId: string,
): Promise<string[]> {
  const tooLong = words.findIndex((w) => [...w].length > MAX_WORD_LENGTH);
  if (tooLong !== -1) throw invalid(`alert_words[${tooLong}] is too long (limit: ${MAX_WORD_LENGTH} characters)`);
  return change(db, actor, requestId, async (store, current) => {
    const existing = new Set(current.map((w) => w.toLowerCase()));
    // Case-insensitively distinct, keeping the case of the last spelling given (Zulip's word_dict).
    const fresh = new Map<string, string>();
    for (const word of clean(words)) if (!existing.has(word.toLowerCase())) fresh.set(word.toLowerCase(), word);
    await store.alertWords.add(actor.userId, actor.realmId, [...fresh.values()]);
  });
}

/** DELETE /users/me/alert_words: words are removed regardless of case; unknown ones are ignored. */
export function removeAlertWords(
  db: Database,
  actor: UserIdentity,
  words: readonly string[],
  requestId: string,
): Promise<string[]> {
  return change(db, actor, requestId, (store) => store.alertWords.remove(actor.userId, clean(words)));
}
