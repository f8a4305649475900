import { copyFile, mkdir } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import type { RenderContext } from '@confab/markdown';
import {
  exportFile,
  ImportError,
  modelPath,
  readAllNdjson,
  readJson,
  type LoaderProgress,
  type ModelChannel,
  type ModelRealm,
  type ModelUpload,
  type ModelUser,
  type ModelUserTopic,
  type StageInput,
  type StageResult,
} from '@confab/porting';
import { topicKey } from '../domain/text.js';
import { stageChannels } from './import-channels.js';
import { copyLine, isoSeconds, nextIds, type ImportDatabase } from './import-db.js';
import { renderContexts, stageMessages } from './import-messages.js';

interface StageFiles {
  uploadsDir: string;
  /** A file written for the import (removed again when it is rolled back). */
  wrote(path: string): void;
}

/** Where an upload's file goes in the file store (as LocalDiskStore lays them out), or an error for a bad path id. */
function storePath(root: string, pathId: string, realmId: number): string {
  const full = resolve(root, pathId);
  if (!full.startsWith(resolve(root) + sep) || !pathId.startsWith(`${realmId}/`))
    throw new ImportError(`the path id '${pathId}' is not this organization's`, 'uploads');
  return full;
}

/**
 * Writes messaging's part of the model in the import's transaction: channels and their subscriptions, default
 * channels (import-channels.ts), linkifiers and playgrounds; then the messages in batches — each rendered with the
 * organization's users, groups, channels, emoji and linkifiers as a send renders it, and COPYed with its reactions;
 * then the per-user rows (import-messages.ts); uploads and their links; topic visibility.
 */
export async function stageMessaging(
  db: ImportDatabase,
  input: StageInput,
  progress: (p: LoaderProgress) => void,
  files: StageFiles,
): Promise<StageResult> {
  const realmId = input.realmId;
  const model = await readJson<ModelRealm>(modelPath(input.workDir, 'realm'));
  const users = await readAllNdjson<ModelUser>(modelPath(input.workDir, 'users'));
  const channels = await readAllNdjson<ModelChannel>(modelPath(input.workDir, 'channels'));
  const uploads = await readAllNdjson<ModelUpload>(modelPath(input.workDir, 'uploads'));
  const userTopics = await readAllNdjson<ModelUserTopic>(modelPath(input.workDir, 'userTopics'));
  const notes: string[] = [];
  const [realm] = await db.query<{ url: string; empty_topic_display_name: string }>(
    'SELECT url, empty_topic_display_name FROM realms WHERE id = $1',
    [realmId],
  );
  if (!realm) throw new Error(`organization ${realmId} was not applied to messaging's copy`);
  await db.query(`SET LOCAL work_mem = '256MB'`);

  // Organization content the renderer uses.
  for (const [order, l] of model.linkifiers.entries())
    await db.query('INSERT INTO linkifiers (realm_id, pattern, url_template, "order") VALUES ($1, $2, $3, $4)', [
      realmId,
      l.pattern,
      l.urlTemplate,
      order,
    ]);
  for (const p of model.playgrounds)
    await db.query(
      'INSERT INTO code_playgrounds (realm_id, name, pygments_language, url_template) VALUES ($1, $2, $3, $4)',
      [realmId, p.name, p.pygmentsLanguage, p.urlTemplate],
    );

  const groups = await db.query<{ id: number; name: string; is_system_group: boolean; deactivated: boolean }>(
    'SELECT id, name, is_system_group, deactivated FROM user_groups WHERE realm_id = $1',
    [realmId],
  );
  const systemNames = new Map(groups.filter((g) => g.is_system_group).map((g) => [g.id, g.name]));
  const groupMembers = new Map<number, number[]>();
  for (const row of await db.query<{ group_id: number; user_id: number }>(
    'SELECT group_id, user_id FROM group_members WHERE group_id = ANY($1::int[])',
    [groups.map((g) => g.id)],
  ))
    groupMembers.set(row.group_id, [...(groupMembers.get(row.group_id) ?? []), row.user_id]);
  const emoji = await db.query<{ emoji_id: string; name: string; source_url: string; deactivated: boolean }>(
    'SELECT emoji_id, name, source_url, deactivated FROM realm_emoji WHERE realm_id = $1',
    [realmId],
  );

  const { channelRecipient, subscribers } = await stageChannels(
    db,
    { id: realmId, url: realm.url },
    channels,
    systemNames,
    progress,
  );

  // The renderer's view of the organization (renderContexts adds each sender's private channels).
  const base: RenderContext = {
    realmUrl: realm.url,
    emptyTopicDisplayName: realm.empty_topic_display_name,
    users: users.map((u) => ({ id: u.id, fullName: u.fullName, isActive: u.isActive })),
    groups: groups.map((g) => ({
      id: g.id,
      name: g.name,
      deactivated: g.deactivated,
      ...(g.is_system_group ? { displayName: g.name.replace(/^role:/, '') } : {}),
    })),
    channels: channels.filter((c) => !c.inviteOnly).map((c) => ({ id: c.id, name: c.name })),
    ...(emoji.length > 0
      ? {
          realmEmoji: new Map(
            emoji.map((e) => [e.name, { id: e.emoji_id, sourceUrl: e.source_url, deactivated: e.deactivated }]),
          ),
        }
      : {}),
    ...(model.linkifiers.length > 0 ? { linkifiers: model.linkifiers } : {}),
  };
  const contextFor = renderContexts(base, channels);

  // Uploads: the files into the file store, their rows; links are found while rendering.
  progress({ phase: 'uploads', done: 0, total: uploads.length });
  const attachmentIds = await nextIds(db, 'attachments_id_seq', uploads.length);
  const uploadByPath = new Map<string, number>();
  for (const [i, u] of uploads.entries()) {
    const target = storePath(files.uploadsDir, u.pathId, realmId);
    const source = exportFile(input.sourceRoot, u.file);
    await mkdir(dirname(target), { recursive: true });
    await copyFile(source, target);
    files.wrote(target);
    uploadByPath.set(u.pathId, attachmentIds[i]!);
    if (i % 100 === 0) progress({ phase: 'uploads', done: i, total: uploads.length });
  }
  await db.copy(
    'COPY attachments (id, realm_id, owner_id, file_name, path_id, size, content_type, create_time) FROM STDIN',
    uploads.map((u, i) =>
      copyLine([
        attachmentIds[i],
        realmId,
        u.ownerId,
        u.fileName,
        u.pathId,
        u.size,
        u.contentType,
        isoSeconds(u.createTime),
      ]),
    ),
  );
  progress({ phase: 'uploads', done: uploads.length, total: uploads.length });

  const idle = new Set(users.filter((u) => u.longTermIdle).map((u) => u.id));
  const written = await stageMessages(
    db,
    input.workDir,
    {
      realmId,
      contextFor,
      channelRecipient,
      subscribers,
      uploadByPath,
      groupMembers,
      explicitRows: model.source === 'zulip',
      idle,
    },
    progress,
  );

  await db.query(
    `UPDATE channels c SET first_message_id = x.first FROM (
       SELECT channel_id, min(id) AS first FROM messages WHERE realm_id = $1 AND channel_id IS NOT NULL GROUP BY channel_id
     ) x WHERE c.id = x.channel_id`,
    [realmId],
  );
  if (userTopics.length > 0)
    await db.copy(
      'COPY user_topics (user_id, channel_id, topic_name, topic_key, visibility_policy, last_updated) FROM STDIN',
      userTopics.map((t) =>
        copyLine([t.userId, t.channelId, t.topic, topicKey(t.topic), t.visibilityPolicy, isoSeconds(t.lastUpdated)]),
      ),
    );
  if (idle.size > 0) await db.query('UPDATE users SET long_term_idle = true WHERE id = ANY($1::int[])', [[...idle]]);

  return {
    counts: {
      channels: channels.length,
      subscriptions: channels.reduce((n, c) => n + c.subscribers.length, 0),
      messages: written.messages,
      'message rows': written.rows,
      reactions: written.reactions,
      uploads: uploads.length,
      'long-term idle users': idle.size,
    },
    events: [],
    notes,
  };
}
