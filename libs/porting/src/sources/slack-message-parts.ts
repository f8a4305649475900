import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { MAX_TOPIC_LENGTH, type ModelReaction } from '../model.js';
import { truncate } from './slack-markup.js';
import type { ReactionEmoji } from './slack-images.js';
import { uploadLink, type IdMaps, type MessageSink } from './source.js';

/** Parts of a Slack message as Zulip's importer converts them: its thread's topic, its reactions and its files. */

type Json = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Zulip's thread topics: "<date> <first message…> (n)", one per thread (its date and its starter). */
export class ThreadTopics {
  private readonly parents = new Map<string, string>();
  private readonly topics = new Map<string, string>();
  private readonly counts = new Map<string, number>();

  /** The topic of a message in a thread (`thread_ts`); `content` is the message's, converted. */
  of(message: Json, content: string): string {
    const threadTs = str(message.thread_ts);
    let parent: string;
    if (message.subtype === 'thread_broadcast') {
      const root = message.root as Json | undefined;
      parent = str(root?.user) || str(root?.bot_id);
    } else if (threadTs === message.ts) {
      parent = str(message.user) || str(message.bot_id);
      this.parents.set(threadTs, parent);
    } else {
      parent = str(message.parent_user_id) || this.parents.get(threadTs) || str(message.bot_id);
    }
    const date = new Date(Number(threadTs) * 1000);
    const key = `${date.toISOString()}-${parent}`;
    const existing = this.topics.get(key);
    if (existing !== undefined) return existing;
    const day = date.toISOString().slice(0, 10);
    const truncated = truncate(`${day} ${content}`.trim(), MAX_TOPIC_LENGTH, '…');
    const collision = this.counts.get(truncated) ?? 0;
    this.counts.set(truncated, collision + 1);
    const suffix = collision > 0 ? ` (${collision + 1})` : '';
    const topic = truncate(`${day} ${content}`.trim(), MAX_TOPIC_LENGTH - suffix.length, '…') + suffix;
    this.topics.set(key, topic);
    return topic;
  }
}

/**
 * Zulip's build_reactions: skin tones merged into the base emoji, one reaction per user and emoji; `emoji` names a
 * Slack emoji name's Unicode or custom emoji (SlackCustomEmoji.reaction), or nothing (the reaction is left out).
 */
export function slackReactions(
  message: Json,
  localUser: ReadonlyMap<string, number>,
  ids: IdMaps,
  emoji: (name: string) => ReactionEmoji | undefined,
): ModelReaction[] {
  const merged = new Map<string, Set<string>>();
  for (const r of (message.reactions as Json[] | undefined) ?? []) {
    const name = str(r.name).split('::')[0]!;
    const users = merged.get(name) ?? new Set<string>();
    for (const u of (r.users as string[] | undefined) ?? []) users.add(u);
    merged.set(name, users);
  }
  const out: ModelReaction[] = [];
  const seen = new Set<string>();
  for (const [name, users] of merged) {
    const found = emoji(name);
    if (!found) continue; // Zulip skips reactions it cannot find too.
    for (const slackId of users) {
      const local = localUser.get(slackId);
      if (local === undefined) continue;
      const userId = ids.user(local);
      const key = `${userId}:${found.reactionType}:${found.emojiCode}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ userId, ...found });
    }
  }
  return out;
}

/**
 * Zulip's process_message_files: files the export carries (below `root`, in `__uploads/<file id>/<name>`) become
 * uploads; Slack-hosted ones are listed.
 */
export async function slackFiles(
  message: Json,
  ref: string,
  ownerId: number,
  root: string,
  sink: MessageSink,
): Promise<{ links: string[]; uploads: number[] }> {
  const files =
    message.subtype === 'file_share' && message.file
      ? [message.file as Json]
      : ((message.files as Json[] | undefined) ?? []);
  const links: string[] = [];
  const uploads: number[] = [];
  for (const file of files) {
    if (file.mode === 'tombstone' || file.mode === 'hidden_by_limit') continue;
    if (file.file_access === 'access_denied' || file.file_access === 'file_not_found') continue;
    const url = str(file.url_private);
    const title = str(file.title) || str(file.name) || 'file';
    const name = str(file.name) || title;
    const local = join('__uploads', str(file.id), name);
    if (file.id && name && existsSync(join(root, local))) {
      const { index, pathId } = await sink.upload({
        ownerId,
        fileName: name,
        file: local,
        size: statSync(join(root, local)).size,
        contentType: str(file.mimetype) || 'application/octet-stream',
        createTime: Number(file.created ?? file.timestamp) || Number(message.ts),
      });
      uploads.push(index);
      links.push(uploadLink(title, pathId));
    } else if (url) {
      if (url.includes('files.slack.com')) sink.linked({ ref, name, url });
      links.push(`[${title}](${url})`);
    }
  }
  return { links, uploads };
}
