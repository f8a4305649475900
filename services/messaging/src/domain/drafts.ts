import { ConfabError, invalid } from '@confab/errors';
import { contracts, outboxRecord, type OutboxRecord } from '@confab/events';
import { accessChannelById } from './channel-access.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { validId } from './ids.js';
import { MAX_TOPIC_LENGTH, normalizeContent, truncate } from './text.js';
import type { DraftData, StoredDraft } from './user-content-store.js';

const notFound = () => new ConfabError('Draft does not exist', { status: 404 });

/** Zulip's draft_endpoint: every draft endpoint is refused while the user has synchronization off. */
export function checkDraftsEnabled(actor: Actor): void {
  if (!actor.user.enableDraftsSynchronization) throw invalid('User has disabled synchronizing drafts.');
}

export function draftDict(draft: StoredDraft): contracts.DraftRecord {
  return {
    id: draft.id,
    type: draft.type,
    to: draft.to,
    topic: draft.topic,
    content: draft.content,
    timestamp: Math.floor(draft.lastEditTime.getTime() / 1000),
  };
}

/** Zulip's further_validated_draft_dict: normalized content, timestamp, topic and an accessible recipient. */
async function validateDraft(
  domain: Domain,
  actor: Actor,
  data: DraftData,
): Promise<Omit<StoredDraft, 'id' | 'userId'>> {
  const content = normalizeContent(data.content);
  let timestamp = data.timestamp ?? Date.now() / 1000;
  timestamp = Math.round(timestamp * 1e6) / 1e6;
  if (timestamp < 0) throw invalid('Timestamp must not be negative.');
  const lastEditTime = new Date(timestamp * 1000);
  // Checked whatever the type: a topic the draft then ignores is still refused, as Zulip's DraftData does.
  if (data.topic.includes('\u0000')) throw invalid('Topic must not contain null bytes');
  if (data.type === 'stream') {
    const topic = truncate(data.topic, MAX_TOPIC_LENGTH, '...');
    if (data.to.length !== 1) throw invalid('Must specify exactly 1 channel ID for channel messages');
    const channelId = data.to[0]!;
    if (!validId(channelId)) throw invalid('Invalid channel ID');
    const { channel } = await accessChannelById(domain, actor, channelId);
    return { type: 'stream', to: [channel.id], topic, content, lastEditTime };
  }
  if (data.type === 'private' && data.to.length > 0) {
    const ids = [...new Set(data.to)];
    const found = new Map((await domain.readModel.usersByIds(actor.realm.id, ids)).map((u) => [u.id, u]));
    for (const id of ids) {
      const user = found.get(id);
      if (!user) throw invalid(`Invalid user ID ${id}`);
      if (!user.isActive) throw invalid(`'${user.email}' is no longer using Zulip.`);
    }
    return { type: 'private', to: displayedRecipients(actor.user.id, ids), topic: '', content, lastEditTime };
  }
  // Unaddressed (or a direct draft without recipients): Zulip stores no recipient and shows type "".
  return { type: '', to: [], topic: '', content, lastEditTime };
}

/** Zulip shows a one-to-one conversation as the other user, a group conversation as all its participants. */
export function displayedRecipients(selfId: number, ids: readonly number[]): number[] {
  const all = [...new Set([...ids, selfId])].sort((a, b) => a - b);
  if (all.length <= 2) return [all.find((id) => id !== selfId) ?? selfId];
  return all;
}

const meta = (actor: Actor) => ({ realmId: actor.realm.id, requestId: actor.requestId });

export async function listDrafts(domain: Domain, actor: Actor) {
  checkDraftsEnabled(actor);
  const drafts = await domain.drafts.list(actor.user.id);
  return { count: drafts.length, drafts: drafts.map(draftDict) };
}

/** POST /drafts: all drafts are checked before any is stored (all or nothing). */
export async function createDrafts(domain: Domain, actor: Actor, drafts: readonly DraftData[]): Promise<number[]> {
  const validated: Omit<StoredDraft, 'id' | 'userId'>[] = [];
  for (const data of drafts) validated.push(await validateDraft(domain, actor, data));
  return domain.db.write(actor.realm.id, async (store) => {
    const created = await store.drafts.createMany(validated.map((d) => ({ ...d, userId: actor.user.id })));
    const events: OutboxRecord[] =
      created.length === 0
        ? []
        : [
            outboxRecord(
              contracts.draftsAdded,
              { user_id: actor.user.id, drafts: created.map(draftDict) },
              meta(actor),
            ),
          ];
    return { result: created.map((d) => d.id), events };
  });
}

export async function editDraft(domain: Domain, actor: Actor, id: number, data: DraftData): Promise<void> {
  const existing = validId(id) ? await domain.drafts.get(actor.user.id, id) : null;
  if (!existing) throw notFound();
  const draft: StoredDraft = { ...existing, ...(await validateDraft(domain, actor, data)) };
  await domain.db.write(actor.realm.id, async (store) => {
    if (!(await store.drafts.update(draft))) throw notFound();
    return {
      result: undefined,
      events: [outboxRecord(contracts.draftUpdated, { user_id: actor.user.id, draft: draftDict(draft) }, meta(actor))],
    };
  });
}

export async function deleteDraft(domain: Domain, actor: Actor, id: number): Promise<void> {
  checkDraftsEnabled(actor);
  if (!validId(id)) throw notFound();
  await domain.db.write(actor.realm.id, async (store) => {
    if (!(await store.drafts.delete(actor.user.id, id))) throw notFound();
    return {
      result: undefined,
      events: [outboxRecord(contracts.draftRemoved, { user_id: actor.user.id, draft_id: id }, meta(actor))],
    };
  });
}
