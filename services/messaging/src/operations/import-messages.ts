import { prepareContext, renderMessage, type PreparedContext, type RenderContext } from '@confab/markdown';
import {
  ImportError,
  modelPath,
  readNdjson,
  type LoaderProgress,
  type ModelChannel,
  type ModelMessage,
} from '@confab/porting';
import { FLAG } from '@confab/zulip';
import { topicKey } from '../domain/text.js';
import { RECIPIENT_DIRECT } from '../domain/types.js';
import { copyLine, isoSeconds, nextIds, type ImportDatabase } from './import-db.js';
import { flagsFromZulip } from './zulip-flags.js';

/** Messaging's import of the messages: rendered as a send renders them, COPYed in batches, then their per-user rows. */

/** Messages rendered and written per batch. */
const BATCH = 5000;
/** Zulip's import client. */
const SENDING_CLIENT = 'ZulipDataImport';

/** The renderer's context for a message of a sender. */
export type ContextFor = (senderId: number, content: string) => PreparedContext;

/**
 * The renderer's view of the organization: everyone, every group, the public channels (and, for a sender with
 * private channels, those too: links to a private channel resolve only for its subscribers).
 */
export function renderContexts(base: RenderContext, channels: readonly ModelChannel[]): ContextFor {
  const publicContext = prepareContext(base);
  const privateOf = new Map<number, { id: number; name: string }[]>();
  for (const c of channels.filter((c) => c.inviteOnly))
    for (const s of c.subscribers)
      privateOf.set(s.userId, [...(privateOf.get(s.userId) ?? []), { id: c.id, name: c.name }]);
  const senderContexts = new Map<number, PreparedContext>();
  return (senderId, content) => {
    const own = privateOf.get(senderId);
    if (!own || !content.includes('#**')) return publicContext;
    let context = senderContexts.get(senderId);
    if (!context) {
      context = prepareContext({ ...base, channels: [...base.channels!, ...own] });
      senderContexts.set(senderId, context);
    }
    return context;
  };
}

/** What the messages are written against: the rows staged before them. */
export interface MessageTargets {
  realmId: number;
  contextFor: ContextFor;
  channelRecipient: ReadonlyMap<number, number>;
  /** Active subscribers by channel. */
  subscribers: ReadonlyMap<number, Set<number>>;
  /** Attachment ids by upload path id, for the links found while rendering. */
  uploadByPath: ReadonlyMap<string, number>;
  groupMembers: ReadonlyMap<number, number[]>;
  /** The export has its per-user rows (Zulip's): they are written as exported, not made by the import rule. */
  explicitRows: boolean;
  /** Long-term idle users, who get only the channel messages that mention them. */
  idle: ReadonlySet<number>;
}

/**
 * Writes the model's messages in batches, each given the next ids of the sequence (so ids follow the export's dates
 * and a message sent later gets a higher one) and COPYed with its reactions and upload links; then the per-user rows
 * (Zulip's import rule: every subscriber, read, except long-term idle users, who get only the messages mentioning
 * them and their direct messages).
 */
export async function stageMessages(
  db: ImportDatabase,
  workDir: string,
  targets: MessageTargets,
  progress: (p: LoaderProgress) => void,
): Promise<{ messages: number; reactions: number; rows: number }> {
  const { realmId, contextFor, channelRecipient, subscribers, uploadByPath, groupMembers, explicitRows, idle } =
    targets;
  // An export's own per-user rows (Zulip's) may repeat a pair: they are merged once all are in. The import rule's
  // rows are unique by construction and go straight into user_messages, batch by batch.
  if (explicitRows)
    await db.query(`CREATE TEMP TABLE import_rows (user_id int, message_id int, flags int) ON COMMIT DROP`);

  const topicSenders = new Map<string, Set<number>>();
  const counts = { messages: 0, reactions: 0, rows: 0 };
  // A first pass counts the messages and finds the direct conversations, so that every id the messages need (their
  // own, their conversations' recipients) is taken before the first batch: the batches' writes then never wait for
  // a round trip of their own, and the next batch renders while the last one is written.
  let total = 0;
  const dmKeys = new Set<string>();
  for await (const m of readNdjson<ModelMessage>(modelPath(workDir, 'messages'))) {
    total++;
    if (m.dmUserIds) dmKeys.add(m.dmUserIds.join(','));
  }
  progress({ phase: 'messages', done: 0, total });
  const dmRecipients = new Map<string, number>();
  if (dmKeys.size > 0) {
    const keys = [...dmKeys];
    const rids = await nextIds(db, 'recipients_id_seq', keys.length);
    keys.forEach((k, i) => dmRecipients.set(k, rids[i]!));
    await db.query(
      'INSERT INTO recipients (id, realm_id, type, dm_key) SELECT * FROM unnest($1::int[], $2::int[], $3::int[], $4::text[])',
      [rids, rids.map(() => realmId), rids.map(() => RECIPIENT_DIRECT), keys],
    );
  }
  const ids = await nextIds(db, 'messages_id_seq', total);
  let nextId = 0;

  /** One batch's rows in COPY's text format. */
  interface Lines {
    messages: string[];
    reactions: string[];
    /** Per-user rows: user_messages' own (the import rule) or import_rows' (an export's, merged at the end). */
    rows: string[];
    links: string[];
  }
  const render = async (messages: ModelMessage[]): Promise<Lines> => {
    const lines: Lines = { messages: [], reactions: [], rows: [], links: [] };
    for (const [i, m] of messages.entries()) {
      // The event loop gets a turn now and then, so that the previous batch's COPY keeps flowing meanwhile.
      if (i > 0 && i % 250 === 0) await new Promise((resolve) => setImmediate(resolve));
      const id = ids[nextId++]!;
      let rendered;
      try {
        rendered = renderMessage(m.content, contextFor(m.senderId, m.content));
      } catch (err) {
        throw new ImportError(`could not be rendered (${err instanceof Error ? err.message : String(err)})`, m.ref);
      }
      const channelId = m.channelId ?? null;
      if (channelId !== null && !subscribers.has(channelId)) throw new ImportError(`no channel ${channelId}`, m.ref);
      const recipientId =
        channelId !== null ? channelRecipient.get(channelId)! : dmRecipients.get(m.dmUserIds!.join(','))!;
      const topic = channelId !== null ? (m.topic ?? '') : '';
      const linked = rendered.linkedUploadPaths
        .map((p) => uploadByPath.get(p))
        .filter((a): a is number => a !== undefined);
      for (const attachment of new Set(linked)) lines.links.push(copyLine([attachment, id]));
      lines.messages.push(
        copyLine([
          id,
          realmId,
          m.senderId,
          recipientId,
          channelId,
          topic,
          topicKey(topic),
          m.content,
          rendered.html,
          isoSeconds(m.dateSent),
          SENDING_CLIENT,
          rendered.isMeMessage,
          linked.length > 0,
          rendered.hasImage,
          rendered.hasLink,
          m.lastEditTime ? isoSeconds(m.lastEditTime) : null,
          m.editHistory ? JSON.stringify(m.editHistory) : null,
        ]),
      );
      for (const r of m.reactions ?? [])
        lines.reactions.push(copyLine([id, r.userId, r.emojiName, r.emojiCode, r.reactionType]));

      if (explicitRows) {
        for (const [userId, bits] of m.userFlags ?? []) lines.rows.push(copyLine([userId, id, flagsFromZulip(bits)]));
        continue;
      }
      // Zulip's import rule (build_usermessages): every active subscriber gets the message, read; mentioned users
      // flagged; long-term idle users only get what mentions them; direct messages for every participant.
      const mentioned = new Set(rendered.mentionedUserIds);
      for (const groupId of rendered.mentionedGroupIds)
        for (const u of groupMembers.get(groupId) ?? []) mentioned.add(u);
      if (channelId === null) {
        for (const userId of new Set(m.dmUserIds))
          lines.rows.push(
            `${userId}\t${id}\t${FLAG.read | FLAG.is_private | (mentioned.has(userId) ? FLAG.mentioned : 0)}`,
          );
        continue;
      }
      const receivers = subscribers.get(channelId)!;
      const key = `${channelId}\u0000${topicKey(topic)}`;
      const participants = topicSenders.get(key) ?? new Set<number>();
      participants.add(m.senderId);
      topicSenders.set(key, participants);
      const extra = new Map<number, number>();
      for (const userId of mentioned) if (receivers.has(userId)) extra.set(userId, FLAG.mentioned);
      if (rendered.wildcards.topic)
        for (const userId of participants)
          if (receivers.has(userId)) extra.set(userId, (extra.get(userId) ?? 0) | FLAG.topic_wildcard_mentioned);
      // A channel-wide mention flags those who get the message as subscribers (not the idle users let in by a
      // mention of their own).
      const everyone = FLAG.read | (rendered.wildcards.channel ? FLAG.stream_wildcard_mentioned : 0);
      for (const userId of receivers) {
        const bits = extra.get(userId);
        if (!idle.has(userId)) lines.rows.push(`${userId}\t${id}\t${everyone | (bits ?? 0)}`);
        else if (bits !== undefined) lines.rows.push(`${userId}\t${id}\t${FLAG.read | bits}`);
      }
    }
    return lines;
  };
  const write = async (messages: ModelMessage[], lines: Lines): Promise<void> => {
    try {
      await db.copy(
        `COPY messages (id, realm_id, sender_id, recipient_id, channel_id, topic, topic_key, content, rendered_content,
           date_sent, sending_client, is_me_message, has_attachment, has_image, has_link, last_edit_time, edit_history)
         FROM STDIN`,
        lines.messages,
      );
    } catch (err) {
      throw new ImportError(
        `writing messages failed (${err instanceof Error ? err.message : String(err)})`,
        messages[0]!.ref,
      );
    }
    if (lines.reactions.length > 0)
      await db.copy(
        'COPY reactions (message_id, user_id, emoji_name, emoji_code, reaction_type) FROM STDIN',
        lines.reactions,
      );
    if (lines.rows.length > 0)
      await db.copy(
        `COPY ${explicitRows ? 'import_rows' : 'user_messages'} (user_id, message_id, flags) FROM STDIN`,
        lines.rows,
      );
    counts.rows += lines.rows.length;
    if (lines.links.length > 0)
      await db.copy('COPY attachment_messages (attachment_id, message_id) FROM STDIN', lines.links);
    counts.messages += messages.length;
    counts.reactions += lines.reactions.length;
    progress({ phase: 'messages', done: counts.messages, total });
  };

  // One batch written while the next renders (at most two in memory).
  let writing: Promise<void> = Promise.resolve();
  let batch: ModelMessage[] = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const messages = batch;
    batch = [];
    const lines = await render(messages);
    await writing;
    writing = write(messages, lines);
    // A failed write is seen by the next flush or at the end, not as an unhandled rejection meanwhile.
    writing.catch(() => undefined);
  };
  for await (const message of readNdjson<ModelMessage>(modelPath(workDir, 'messages'))) {
    batch.push(message);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  await writing;

  // An export's own per-user rows, merged (a pair given twice gets both its flags).
  let rows = counts.rows;
  if (explicitRows) {
    progress({ phase: 'message rows', done: 0, total: null });
    const merged = await db.query<{ count: number }>(
      `WITH written AS (
         INSERT INTO user_messages (user_id, message_id, flags)
         SELECT user_id, message_id, bit_or(flags) FROM import_rows GROUP BY user_id, message_id
         ON CONFLICT (user_id, message_id) DO UPDATE SET flags = user_messages.flags | EXCLUDED.flags
         RETURNING (xmax = 0) AS inserted)
       SELECT count(*) FILTER (WHERE inserted)::int AS count FROM written`,
    );
    rows = merged[0]!.count;
  }
  progress({ phase: 'message rows', done: rows, total: rows });
  return { messages: counts.messages, reactions: counts.reactions, rows };
}
