import { topicLinks } from '@confab/markdown';
import type { contracts, PayloadOf } from '@confab/events';
import { FLAG, MENTION_BITS } from '@confab/zulip';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import type { EditUnit } from './edit-store.js';
import type { EditPlan } from './edit-plan.js';
import { displayRecipientUsers, messageRecord } from './message-records.js';
import { topicKey } from './text.js';

/**
 * message.updated's `notify` for a content edit (Zulip's update_message_content hands the notification code the
 * same): the message as it is after the edit, the receivers mentioned before it (rows that are not historical, as
 * Zulip's prior_mention_user_ids), and the notification facts of the message's topic after the edit, read inside
 * the edit's transaction. The push service decides from these and the flags after the edit whom it newly notifies.
 */
export async function editNotify(
  domain: Domain,
  actor: Actor,
  unit: EditUnit,
  plan: EditPlan,
  rowsBefore: ReadonlyMap<number, number>,
): Promise<PayloadOf<typeof contracts.messageUpdated>['notify']> {
  const { message, origChannel, content } = plan;
  if (!content) return undefined;
  const topic = plan.topic ?? message.topic;
  const prior: number[] = [];
  for (const [userId, bits] of rowsBefore)
    if ((bits & MENTION_BITS) !== 0 && (bits & FLAG.historical) === 0) prior.push(userId);
  const displayRecipient = origChannel
    ? origChannel.name
    : displayRecipientUsers(await domain.directory.usersByIds(actor.realm.id, message.dmUserIds ?? []));
  const links = origChannel ? topicLinks(await domain.directory.linkifiersOf(actor.realm.id), topic) : [];
  const edited = {
    ...message,
    topic,
    content: content.change.content,
    renderedContent: content.change.renderedContent,
    isMeMessage: content.change.isMeMessage,
  };
  return {
    // Only the sender edits content (checkCanEditContent): the actor is the sender.
    message: messageRecord(edited, actor.user, actor.realm, displayRecipient, [], links),
    prior_mention_user_ids: prior.sort((a, b) => a - b),
    facts: await unit.notifyFacts([...rowsBefore.keys()], origChannel?.id ?? null, topicKey(topic)),
  };
}
