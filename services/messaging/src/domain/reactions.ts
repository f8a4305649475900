import { ConfabError, invalid } from '@confab/errors';
import { contracts, outboxRecord } from '@confab/events';
import { checkReactionEmoji, resolveReactionEmoji } from '@confab/markdown';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import { accessMessage, messageAudience } from './fetch.js';
import { topicKey } from './text.js';
import type { CustomEmojiSet, ReactionType } from './types.js';
import { VISIBILITY_FOLLOWED } from './types.js';

const REACTION_TYPES: readonly ReactionType[] = ['unicode_emoji', 'realm_emoji', 'service_extra_emoji'];

/** Zulip's own name for the type docs/api.md calls service_extra_emoji; the apps send it, so both are accepted. */
function reactionTypeOf(given: string | undefined): ReactionType | undefined {
  return (given === 'zulip_extra_emoji' ? 'service_extra_emoji' : given) as ReactionType | undefined;
}

/** What an emoji name means: the organization's custom emoji first (as in Zulip), then `zulip`, then Unicode. */
function emojiFromName(emoji: CustomEmojiSet, name: string): { type: ReactionType; code: string } {
  const found = resolveReactionEmoji(name, (n) => emoji.byName.get(n));
  if (!found) throw invalid(`Emoji '${name}' does not exist`);
  return found;
}

/** POST /messages/{message_id}/reactions (Zulip's check_add_reaction, voting on an existing reaction by code). */
export async function addReaction(
  domain: Domain,
  actor: Actor,
  messageId: number,
  input: { emojiName: string; emojiCode: string | undefined; reactionType: string | undefined },
): Promise<void> {
  const { message, flags } = await accessMessage(domain, actor, messageId);
  let name = input.emojiName;
  let code = input.emojiCode;
  let type = reactionTypeOf(input.reactionType);
  const emoji = await domain.directory.realmEmoji(actor.realm.id);
  if (code === undefined || type === undefined) ({ code, type } = emojiFromName(emoji, name));
  const existing = (await domain.reactions.forMessages([message.id])).get(message.id) ?? [];
  if (existing.some((r) => r.userId === actor.user.id && r.emojiCode === code && r.reactionType === type)) {
    throw new ConfabError('Reaction already exists.', { code: 'REACTION_ALREADY_EXISTS' });
  }
  const vote = existing.find((r) => r.emojiCode === code && r.reactionType === type);
  if (vote) {
    // A vote for an existing reaction keeps that reaction's name (Zulip avoids two names for one emoji).
    name = vote.emojiName;
  } else {
    const check = checkReactionEmoji({ type, name, code }, (id) => emoji.byId.get(id));
    if (!check.ok) throw invalid(check.message);
  }
  if (!REACTION_TYPES.includes(type)) throw invalid('Invalid emoji type.');
  const audience = await messageAudience(domain, message);
  const meta = { realmId: actor.realm.id, requestId: actor.requestId };
  await domain.db.writeSql(actor.realm.id, async (store) => {
    if (flags === null) await store.flags.createHistoricalRows(actor.user.id, [message.id]);
    const added = await store.reactions.add({
      messageId: message.id,
      userId: actor.user.id,
      emojiName: name,
      emojiCode: code,
      reactionType: type,
    });
    if (!added) throw new ConfabError('Reaction already exists.', { code: 'REACTION_ALREADY_EXISTS' });
    const events = [
      outboxRecord(
        contracts.reactionAdded,
        {
          message_id: message.id,
          user_id: actor.user.id,
          emoji_name: name,
          emoji_code: code,
          reaction_type: type,
          user_ids: audience,
          user: { email: actor.user.email, full_name: actor.user.fullName },
        },
        meta,
      ),
    ];
    // Reacting is participating: users who follow topics they participate in now follow this one.
    if (message.channelId !== null && actor.user.automaticallyFollowTopicsPolicy === 1 && !actor.user.isBot) {
      const key = topicKey(message.topic);
      if ((await domain.userTopics.policy(actor.user.id, message.channelId, key)) !== VISIBILITY_FOLLOWED) {
        const change = {
          userId: actor.user.id,
          channelId: message.channelId,
          topicName: message.topic,
          topicKey: key,
          policy: VISIBILITY_FOLLOWED,
        } as const;
        const now = new Date();
        await store.userTopics.setPolicies([change], now);
        events.push(
          outboxRecord(
            contracts.userTopicChanged,
            {
              user_id: actor.user.id,
              stream_id: message.channelId,
              topic_name: message.topic,
              last_updated: Math.floor(now.getTime() / 1000),
              visibility_policy: 3,
            },
            meta,
          ),
        );
      }
    }
    return { result: undefined, events };
  });
}

/** DELETE /messages/{message_id}/reactions. */
export async function removeReaction(
  domain: Domain,
  actor: Actor,
  messageId: number,
  input: { emojiName: string | undefined; emojiCode: string | undefined; reactionType: string },
): Promise<void> {
  const { message } = await accessMessage(domain, actor, messageId);
  let code = input.emojiCode;
  let type = reactionTypeOf(input.reactionType) as ReactionType;
  if (code === undefined) {
    if (input.emojiName === undefined)
      throw invalid('At least one of the following arguments must be present: emoji_name, emoji_code');
    // Clients that only know the name (Zulip's get_emoji_data): its code and type as a reaction would have them.
    ({ code, type } = emojiFromName(await domain.directory.realmEmoji(actor.realm.id), input.emojiName));
  }
  const missing = () => new ConfabError("Reaction doesn't exist.", { code: 'REACTION_DOES_NOT_EXIST' });
  // No stored reaction has an unknown type or a code the database could not hold.
  if (!REACTION_TYPES.includes(type) || code.includes('\u0000')) throw missing();
  const audience = await messageAudience(domain, message);
  await domain.db.writeSql(actor.realm.id, async ({ reactions }) => {
    const removed = await reactions.remove({
      messageId: message.id,
      userId: actor.user.id,
      emojiCode: code,
      reactionType: type,
    });
    if (!removed) throw missing();
    const event = outboxRecord(
      contracts.reactionRemoved,
      {
        message_id: message.id,
        user_id: actor.user.id,
        emoji_name: removed.emojiName,
        emoji_code: code,
        reaction_type: type,
        user_ids: audience,
        user: { email: actor.user.email, full_name: actor.user.fullName },
      },
      { realmId: actor.realm.id, requestId: actor.requestId },
    );
    return { result: undefined, events: [event] };
  });
}
