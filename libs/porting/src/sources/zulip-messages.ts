import { ImportError } from '../loader.js';
import type { ModelReaction } from '../model.js';
import { participants, type IdMaps, type MessageSink } from './source.js';
import { num, rows, str, type Row, type ZulipExportDir, type ZulipIds } from './zulip-tables.js';

/** The second pass over a Zulip export: its uploads, reactions and messages, sent on with the final ids. */

/** Mentions that name an old user id (`@**Name|12**`, `@_**Name|12**`). */
const MENTION_IDS = /(@_?\*\*[^*|]*\|)(\d+)(\*\*)/g;

/**
 * Reads messages-000001.json … in order: each message with its reactions, per-user rows and uploads, its mentions
 * and edit history written with the new user ids and its upload links with the new path ids.
 */
export async function readMessages(
  dir: ZulipExportDir,
  data: Row,
  messageFiles: readonly string[],
  old: ZulipIds,
  ids: IdMaps,
  sink: MessageSink,
): Promise<void> {
  const user = (id: unknown, ref: string) => {
    const local = old.users.get(Number(id));
    if (local === undefined) throw new ImportError(`refers to user ${String(id)}, which the export lacks`, ref);
    return ids.user(local);
  };
  const uploadsByMessage = await readUploads(dir, user, sink);
  const reactions = readReactions(data, old, ids, user);
  for (const file of messageFiles) {
    const part = await dir.json(file);
    const flags = new Map<number, [number, number][]>();
    for (const um of rows(part, 'zerver_usermessage')) {
      const message = Number(um.message);
      flags.set(message, [...(flags.get(message) ?? []), [user(um.user_profile, file), Number(um.flags_mask ?? 0)]]);
    }
    const messages = [...rows(part, 'zerver_message')].sort((a, b) => Number(a.id) - Number(b.id));
    for (const m of messages) {
      const ref = `${file}, message ${String(m.id)}`;
      const senderId = user(m.sender, ref);
      const target = old.recipients.get(Number(m.recipient));
      let content = str(m.content).replace(MENTION_IDS, (all, head: string, id: string, tail: string) => {
        const local = old.users.get(Number(id));
        return local === undefined ? all : `${head}${ids.user(local)}${tail}`;
      });
      const linked = uploadsByMessage.get(Number(m.id)) ?? [];
      for (const u of linked) content = content.replaceAll(`/user_uploads/${u.oldPath}`, `/user_uploads/${u.pathId}`);
      let history: unknown[] | null = null;
      if (m.edit_history) {
        const parsed = (typeof m.edit_history === 'string' ? JSON.parse(m.edit_history) : m.edit_history) as Row[];
        history = parsed.map((h) => ({
          ...h,
          ...(h.user_id !== undefined && h.user_id !== null ? { user_id: user(h.user_id, ref) } : {}),
        }));
      }
      const base = {
        ref,
        senderId,
        content,
        dateSent: num(m.date_sent) ?? num(m.pub_date) ?? 0,
        lastEditTime: num(m.last_edit_time),
        editHistory: history,
        reactions: reactions.get(Number(m.id)) ?? [],
        uploads: linked.map((u) => u.index),
        userFlags: flags.get(Number(m.id)) ?? [],
      };
      if (target?.stream !== undefined) {
        const channel = old.channels.get(target.stream);
        if (channel === undefined) throw new ImportError(`no stream ${target.stream} in the export`, ref);
        await sink.message({ ...base, channelId: ids.channel(channel), topic: str(m.subject ?? m.topic_name) });
      } else if (target?.user !== undefined) {
        await sink.message({ ...base, dmUserIds: participants([senderId, user(target.user, ref)]) });
      } else if (target?.huddle !== undefined) {
        const members = old.huddleMembers.get(target.huddle) ?? [];
        await sink.message({ ...base, dmUserIds: participants([...members.map(ids.user), senderId]) });
      } else throw new ImportError(`no recipient ${String(m.recipient)} in the export`, ref);
    }
  }
}

type UserOf = (id: unknown, ref: string) => number;

/** Uploads: the files of uploads/, under new path ids, by the messages that linked the old ones. */
async function readUploads(dir: ZulipExportDir, user: UserOf, sink: MessageSink) {
  const records = new Map((await dir.records('uploads')).map((r) => [str(r.path) || str(r.s3_path), r]));
  const attachments = (await dir.optional('attachment.json')).zerver_attachment as Row[] | undefined;
  const uploadsByMessage = new Map<number, { oldPath: string; index: number; pathId: string; name: string }[]>();
  for (const a of attachments ?? []) {
    const oldPath = str(a.path_id);
    if (!records.has(oldPath))
      throw new ImportError(`the file of upload ${oldPath} is missing from uploads/records.json`, 'attachment.json');
    const { index, pathId } = await sink.upload({
      ownerId: user(a.owner, 'attachment.json'),
      fileName: str(a.file_name),
      file: `uploads/${oldPath}`,
      size: num(a.size) ?? 0,
      contentType: str(a.content_type) || 'application/octet-stream',
      createTime: num(a.create_time) ?? Date.now() / 1000,
    });
    for (const m of (a.messages as number[] | undefined) ?? [])
      uploadsByMessage.set(m, [...(uploadsByMessage.get(m) ?? []), { oldPath, index, pathId, name: str(a.file_name) }]);
  }
  return uploadsByMessage;
}

/** Reactions by message, custom emoji by their new ids. */
function readReactions(data: Row, old: ZulipIds, ids: IdMaps, user: UserOf): Map<number, ModelReaction[]> {
  const reactions = new Map<number, ModelReaction[]>();
  for (const r of rows(data, 'zerver_reaction')) {
    const message = Number(r.message);
    const type = str(r.reaction_type);
    const code =
      type === 'realm_emoji' ? String(ids.emoji(old.emoji.get(Number(r.emoji_code)) ?? 0)) : str(r.emoji_code);
    reactions.set(message, [
      ...(reactions.get(message) ?? []),
      {
        userId: user(r.user_profile, 'zerver_reaction'),
        emojiName: str(r.emoji_name),
        emojiCode: code,
        reactionType: type === 'zulip_extra_emoji' ? 'service_extra_emoji' : (type as ModelReaction['reactionType']),
      },
    ]);
  }
  return reactions;
}
