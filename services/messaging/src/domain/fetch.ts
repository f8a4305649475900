import { invalid } from '@confab/errors';
import {
  canonicalOperator,
  FLAG,
  HAS_OPERANDS,
  IS_OPERANDS,
  MENTION_BITS,
  NARROW_OPERATORS,
  ROLE_GUEST,
} from '@confab/zulip';
import { basicAccess, canAccessHistory } from './channel-access.js';
import type { Domain } from './context.js';
import type { Actor } from './actor.js';
import {
  clientMessage,
  displayRecipientUsers,
  messageRecord,
  type ClientOptions,
  topicLinker,
} from './message-records.js';
import { badNarrow, type MessageQuery, type RawTerm, type SearchScope, type Term } from './narrow.js';
import { searchFields, searchWords } from './search-fields.js';
import { topicKey } from './text.js';
import type { Channel, StoredMessage, User } from './types.js';

/** Zulip's MAX_MESSAGES_PER_FETCH and LARGER_THAN_MAX_MESSAGE_ID. */
export const MAX_MESSAGES_PER_FETCH = 5000;
export const LARGER_THAN_MAX_MESSAGE_ID = 10_000_000_000_000_000;

export type Anchor = number | 'first_unread';

/** Zulip's parse_anchor_value. */
export function parseAnchor(raw: string | undefined, useFirstUnread: boolean): Anchor {
  if (useFirstUnread) return 'first_unread';
  if (raw === undefined) throw invalid("Missing 'anchor' argument.");
  if (raw === 'oldest') return 0;
  if (raw === 'newest') return LARGER_THAN_MAX_MESSAGE_ID;
  if (raw === 'first_unread') return 'first_unread';
  if (!/^-?\d+$/.test(raw.trim())) throw invalid('Invalid anchor');
  const value = Number(raw.trim());
  if (value < 0) return 0;
  return Math.min(value, LARGER_THAN_MAX_MESSAGE_ID);
}

async function channelFor(domain: Domain, actor: Actor, operand: RawTerm['operand']): Promise<Channel> {
  let channel: Channel | null = null;
  if (typeof operand === 'number') channel = await domain.directory.channel(operand);
  else if (typeof operand === 'string')
    channel = /^\d+$/.test(operand) ? await domain.directory.channel(Number(operand)) : null;
  if (!channel && typeof operand === 'string') channel = await domain.directory.channelByName(actor.realm.id, operand);
  if (!channel || channel.realmId !== actor.realm.id) throw badNarrow(`unknown channel ${String(operand)}`);
  return channel;
}

async function usersFor(domain: Domain, actor: Actor, operand: RawTerm['operand'], label: string): Promise<User[]> {
  const items: (string | number)[] = Array.isArray(operand)
    ? operand
    : typeof operand === 'number'
      ? [operand]
      : operand
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  const ids = items.filter((i): i is number => typeof i === 'number');
  const emails = items.filter((i): i is string => typeof i === 'string');
  const users = [
    ...(await domain.readModel.usersByIds(actor.realm.id, ids)),
    ...(await domain.readModel.usersByEmails(actor.realm.id, emails)),
  ];
  const found = new Set([...users.map((u) => u.id), ...users.map((u) => u.email.toLowerCase())]);
  for (const item of items)
    if (!found.has(typeof item === 'number' ? item : item.toLowerCase())) throw badNarrow(label);
  return users;
}

/**
 * GET /messages' operator for a term: the shared grammar's (libs/zulip/src/narrow.ts), synonyms folded, or null.
 * `from` is a synonym of the search box only: Zulip's server answers "unknown operator from", and so does this one.
 */
function operatorOf(operator: string): (typeof NARROW_OPERATORS)[number] | null {
  if (operator === 'from') return null;
  const name = canonicalOperator(operator);
  return NARROW_OPERATORS.find((known) => known === name) ?? null;
}

/** Each `is:` operand of the grammar as a storage term, and whether it reads the user's own rows (their flags). */
const IS_TERMS: Record<(typeof IS_OPERANDS)[number], { term: (negated: boolean) => Term; ownRows: boolean }> = {
  dm: { term: (negated) => ({ kind: 'direct', negated }), ownRows: true },
  private: { term: (negated) => ({ kind: 'direct', negated }), ownRows: true },
  starred: { term: (negated) => ({ kind: 'flags', bits: FLAG.starred, set: true, negated }), ownRows: true },
  mentioned: { term: (negated) => ({ kind: 'flags', bits: MENTION_BITS, set: true, negated }), ownRows: true },
  alerted: { term: (negated) => ({ kind: 'flags', bits: FLAG.has_alert_word, set: true, negated }), ownRows: true },
  unread: { term: (negated) => ({ kind: 'flags', bits: FLAG.read, set: false, negated }), ownRows: true },
  resolved: { term: (negated) => ({ kind: 'resolved', negated }), ownRows: false },
};

const isTermOf = (operand: string) =>
  Object.hasOwn(IS_TERMS, operand) ? IS_TERMS[operand as keyof typeof IS_TERMS] : undefined;

/** Resolves a narrow into storage terms and decides whether channel history (not only the user's rows) is searched. */
export async function resolveNarrow(
  domain: Domain,
  actor: Actor,
  narrow: readonly RawTerm[],
): Promise<{ terms: Term[]; scope: SearchScope; isSearch: boolean }> {
  const terms: Term[] = [];
  let historyRecipients: number[] | null = null;
  let userSpecific = false;
  let isSearch = false;
  for (const raw of narrow) {
    const { operator, operand, negated } = raw;
    const text = typeof operand === 'string' ? operand : String(operand);
    switch (operatorOf(operator)) {
      case 'channel': {
        const channel = await channelFor(domain, actor, operand);
        terms.push({ kind: 'recipients', recipientIds: [channel.recipientId], negated });
        if (!negated) {
          const sub = await domain.channels.subscription(actor.user.id, channel.id);
          historyRecipients = canAccessHistory(actor, channel, sub?.active ? sub : null) ? [channel.recipientId] : null;
        }
        break;
      }
      case 'channels': {
        if (operand !== 'public' && operand !== 'web-public') throw badNarrow(`unknown channels operand ${text}`);
        const channels = (await domain.channels.channelsInRealm(actor.realm.id)).filter((c) =>
          operand === 'public' ? !c.inviteOnly && !c.isArchived : c.isWebPublic,
        );
        const ids = channels.filter((c) => basicAccess(actor, c, null)).map((c) => c.recipientId);
        terms.push({ kind: 'recipients', recipientIds: ids, negated });
        if (!negated && operand === 'public' && actor.user.role !== ROLE_GUEST) historyRecipients = ids;
        break;
      }
      case 'topic': {
        const topic = text === actor.realm.emptyTopicDisplayName ? '' : text;
        terms.push({ kind: 'topic', topicKey: topicKey(topic), negated });
        break;
      }
      case 'sender': {
        const [user] = await usersFor(domain, actor, operand, `unknown user ${text}`);
        terms.push({ kind: 'sender', userId: user!.id, negated });
        break;
      }
      case 'dm': {
        const users = await usersFor(domain, actor, operand, `unknown user in ${text}`);
        const ids = [...new Set([...users.map((u) => u.id), actor.user.id])].sort((a, b) => a - b);
        const recipientId = await domain.messages.directRecipient(actor.realm.id, ids);
        terms.push({ kind: 'recipients', recipientIds: [recipientId], negated });
        break;
      }
      case 'dm-including': {
        const [user] = await usersFor(domain, actor, operand, `unknown user ${text}`);
        terms.push({ kind: 'dmIncluding', userId: user!.id, negated });
        break;
      }
      case 'is': {
        const is = isTermOf(text);
        if (!is) throw badNarrow(`unknown 'is' operand ${text}`);
        terms.push(is.term(negated));
        if (is.ownRows) userSpecific = true;
        break;
      }
      case 'has': {
        const what = HAS_OPERANDS.find((known) => known === text);
        if (!what) throw badNarrow(`unknown 'has' operand ${text}`);
        terms.push({ kind: 'has', what, negated });
        break;
      }
      case 'id': {
        if (!/^\d+$/.test(text)) throw badNarrow(`invalid message ID ${text}`);
        const id = Number(text);
        // An id beyond the column's range names no message.
        terms.push(
          Number.isSafeInteger(id) && id <= 2_147_483_647
            ? { kind: 'id', id, negated }
            : negated
              ? { kind: 'none', negated: true }
              : { kind: 'none' },
        );
        break;
      }
      case 'search':
        terms.push({ kind: 'search', text, negated });
        isSearch = true;
        break;
      case 'near':
      case 'with':
      case 'in':
        // Navigation hints for clients; they do not filter.
        break;
      case null:
        throw badNarrow(`unknown operator ${operator}`);
    }
  }
  // Rows that only the user's own messages have (flags) cannot come from history.
  const scope: SearchScope =
    historyRecipients && !userSpecific ? { kind: 'history', recipientIds: historyRecipients } : { kind: 'user' };
  return { terms, scope, isSearch };
}

/** Builds the client-facing dicts of messages, with senders, recipients and reactions fetched in bulk. */
export async function messageDicts(
  domain: Domain,
  actor: Actor,
  messages: readonly StoredMessage[],
  flags: Map<number, number>,
  options: ClientOptions,
): Promise<Record<string, unknown>[]> {
  const userIds = new Set<number>();
  const channelIds = new Set<number>();
  for (const m of messages) {
    userIds.add(m.senderId);
    for (const id of m.dmUserIds ?? []) userIds.add(id);
    if (m.channelId !== null) channelIds.add(m.channelId);
  }
  const withWidgets = messages.filter((m) => m.hasSubmessages).map((m) => m.id);
  const [users, channels, reactions, submessages, linkifiers] = await Promise.all([
    domain.directory.usersByIds(actor.realm.id, [...userIds]),
    domain.directory.channelsByIds([...channelIds]),
    domain.reactions.forMessages(messages.map((m) => m.id)),
    domain.submessages.forMessages(withWidgets),
    domain.directory.linkifiersOf(actor.realm.id),
  ]);
  const linksOf = topicLinker(linkifiers);
  const userById = new Map(users.map((u) => [u.id, u]));
  const channelById = new Map(channels.map((c) => [c.id, c]));
  return messages.map((m) => {
    const sender = userById.get(m.senderId) ?? { id: m.senderId, email: '', fullName: '' };
    const display =
      m.channelId !== null
        ? (channelById.get(m.channelId)?.name ?? '')
        : displayRecipientUsers(
            (m.dmUserIds ?? []).map((id) => userById.get(id)).filter((u): u is User => u !== undefined),
          );
    const links = m.channelId === null ? [] : linksOf(m.topic);
    const record = messageRecord(m, sender, actor.realm, display, reactions.get(m.id) ?? [], links);
    record.submessages = submessages.get(m.id) ?? [];
    return clientMessage(record, flags.get(m.id) ?? FLAG.read | FLAG.historical, actor.realm, options, {
      lastEditTime: m.lastEditTime,
    });
  });
}

export interface FetchInput {
  anchor: Anchor;
  includeAnchor: boolean;
  numBefore: number | undefined;
  numAfter: number | undefined;
  narrow: RawTerm[];
  messageIds: number[] | undefined;
  options: ClientOptions;
}

/** GET /messages: Zulip's fetch_messages with anchors, narrows and the found_* bookkeeping. */
export async function fetchMessages(domain: Domain, actor: Actor, input: FetchInput): Promise<Record<string, unknown>> {
  const { terms, scope, isSearch } = await resolveNarrow(domain, actor, input.narrow);
  const query: MessageQuery = { userId: actor.user.id, scope, terms };

  if (input.messageIds !== undefined) {
    const rows = await domain.messages.fetchIds(query, input.messageIds);
    const messages = await domain.messages.messagesByIds(rows.map((r) => r.id));
    const flags = new Map(rows.map((r) => [r.id, r.flags]));
    return { messages: await messageDicts(domain, actor, messages, flags, input.options), history_limited: false };
  }
  if (input.numBefore === undefined) throw invalid("Missing 'num_before' argument");
  if (input.numAfter === undefined) throw invalid("Missing 'num_after' argument");
  if (input.numBefore + input.numAfter > MAX_MESSAGES_PER_FETCH) {
    throw invalid(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
  }
  const { kept, anchor, foundAnchor, foundOldest, foundNewest } = await fetchRange(domain, query, {
    anchor: input.anchor,
    includeAnchor: input.includeAnchor,
    numBefore: input.numBefore,
    numAfter: input.numAfter,
  });
  const messages = await domain.messages.messagesByIds(kept.map((r) => r.id));
  const flags = new Map(kept.map((r) => [r.id, r.flags]));
  const dicts = await messageDicts(domain, actor, messages, flags, input.options);
  if (isSearch) {
    const words = searchWords(terms);
    const byId = new Map(messages.map((m) => [m.id, m]));
    for (const dict of dicts) Object.assign(dict, searchFields(byId.get(dict.id as number)!, words));
  }
  return {
    messages: dicts,
    anchor,
    found_anchor: foundAnchor,
    found_oldest: foundOldest,
    found_newest: foundNewest,
    history_limited: false,
  };
}

/**
 * The ids (and the user's flags) of up to `numBefore` messages before the anchor and `numAfter` after it in a
 * narrow, with Zulip's found_* bookkeeping: what GET /messages and POST /messages/flags/narrow act on.
 */
export async function fetchRange(
  domain: Domain,
  query: MessageQuery,
  input: { anchor: Anchor; includeAnchor: boolean; numBefore: number; numAfter: number },
): Promise<{
  kept: { id: number; flags: number }[];
  anchor: number;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
}> {
  const { numBefore, numAfter } = input;
  if (numBefore > 0 && numAfter > 0 && !input.includeAnchor)
    throw invalid('The anchor can only be excluded at an end of the range');
  let anchor: number;
  if (input.anchor === 'first_unread')
    anchor = (await domain.messages.firstUnread(query)) ?? LARGER_THAN_MAX_MESSAGE_ID;
  else anchor = input.anchor;
  const anchoredLeft = anchor === 0;
  const anchoredRight = anchor >= LARGER_THAN_MAX_MESSAGE_ID;

  const rows = await domain.messages.fetchRange(query, {
    anchor,
    includeAnchor: input.includeAnchor,
    numBefore,
    numAfter,
    anchoredLeft,
    anchoredRight,
  });
  let before = anchoredRight ? rows : rows.filter((r) => r.id < anchor);
  const atAnchor = anchoredRight ? [] : rows.filter((r) => r.id === anchor);
  let after = anchoredRight ? [] : rows.filter((r) => r.id > anchor);
  if (numBefore) before = before.slice(-numBefore);
  if (numAfter) after = after.slice(0, numAfter);
  return {
    kept: [...before, ...atAnchor, ...after],
    anchor,
    foundAnchor: atAnchor.length === 1,
    foundOldest: anchoredLeft || before.length < numBefore,
    foundNewest: anchoredRight || after.length < numAfter,
  };
}

/** Zulip's access_message: a message the user received, or one in a channel whose history they may read. */
export async function accessMessage(
  domain: Domain,
  actor: Actor,
  messageId: number,
): Promise<{ message: StoredMessage; flags: number | null; channel: Channel | null }> {
  const error = () => invalid('Invalid message(s)');
  const message = await domain.messages.messageById(messageId);
  if (!message || message.realmId !== actor.realm.id) throw error();
  const flags = await domain.messages.userMessageFlags(actor.user.id, message.id);
  if (message.channelId === null) {
    if (flags === null) throw error();
    return { message, flags, channel: null };
  }
  const channel = await domain.directory.channel(message.channelId);
  if (!channel) throw error();
  const sub = await domain.channels.subscription(actor.user.id, channel.id);
  const active = sub?.active ? sub : null;
  if (!channel.inviteOnly && actor.user.role !== ROLE_GUEST) return { message, flags, channel };
  if (channel.isWebPublic) return { message, flags, channel };
  if (!channel.historyPublicToSubscribers) {
    if (flags !== null && active) return { message, flags, channel };
    throw error();
  }
  if (active) return { message, flags, channel };
  throw error();
}

/** GET /messages/{message_id}. */
export async function fetchOneMessage(
  domain: Domain,
  actor: Actor,
  messageId: number,
  options: ClientOptions,
): Promise<Record<string, unknown>> {
  const { message, flags } = await accessMessage(domain, actor, messageId);
  const [dict] = await messageDicts(
    domain,
    actor,
    [message],
    new Map(flags === null ? [] : [[message.id, flags]]),
    options,
  );
  return { raw_content: message.content, message: dict };
}

/** Users who see changes to a message: those with a row for it, and the channel's subscribers. */
export async function messageAudience(domain: Domain, message: StoredMessage): Promise<number[]> {
  const ids = new Set(await domain.messages.holders(message.id));
  if (message.channelId !== null)
    for (const id of (await domain.channels.subscribers([message.channelId])).get(message.channelId) ?? []) ids.add(id);
  return [...ids].sort((a, b) => a - b);
}
