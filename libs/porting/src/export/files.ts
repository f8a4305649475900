import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ExportData } from './data.js';

/** The files of an export: avatars/, emoji/ and uploads/ with their records.json rows, and the .tar.gz of it all. */

/** A row of a records.json. */
type FileRecord = Record<string, unknown>;

/** Uploaded avatars into avatars/ (the resized one and the original, the same PNG), with their records. */
export async function writeAvatars(dir: string, realmId: number, users: ExportData['users']): Promise<FileRecord[]> {
  const records: FileRecord[] = [];
  for (const u of users) {
    if (!u.avatar) continue;
    const base = `${realmId}/${createHash('sha1').update(`${u.id}:${u.avatarVersion}`).digest('hex')}`;
    for (const suffix of ['.png', '.original']) {
      await mkdir(join(dir, 'avatars', String(realmId)), { recursive: true });
      await writeFile(join(dir, 'avatars', `${base}${suffix}`), Buffer.from(u.avatar, 'base64'));
      records.push({
        realm_id: realmId,
        user_profile_id: u.id,
        user_profile_email: u.email,
        avatar_version: u.avatarVersion,
        s3_path: `${base}${suffix}`,
        path: `${base}${suffix}`,
        size: Buffer.from(u.avatar, 'base64').length,
        last_modified: u.dateJoined,
        content_type: 'image/png',
      });
    }
  }
  return records;
}

/** Custom emoji images into emoji/ (and their originals), with their records. */
export async function writeEmoji(dir: string, realmId: number, emoji: ExportData['emoji']): Promise<FileRecord[]> {
  const records: FileRecord[] = [];
  for (const e of emoji) {
    for (const suffix of ['', '.original']) {
      const path = `${realmId}/emoji/images/${e.fileName}${suffix}`;
      await mkdir(join(dir, 'emoji', dirname(path)), { recursive: true });
      await writeFile(join(dir, 'emoji', path), Buffer.from(e.data, 'base64'));
      records.push({
        realm_id: realmId,
        author: e.authorId,
        path,
        s3_path: path,
        file_name: e.fileName,
        name: e.name,
        deactivated: e.deactivated,
      });
    }
  }
  return records;
}

/** Uploaded files into uploads/ under their path ids, with their records. */
export async function writeUploads(
  dir: string,
  realmId: number,
  data: Pick<ExportData, 'attachments' | 'users'>,
): Promise<FileRecord[]> {
  const records: FileRecord[] = [];
  for (const a of data.attachments) {
    const target = join(dir, 'uploads', a.pathId);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, await a.data());
    records.push({
      realm_id: realmId,
      user_profile_id: a.ownerId,
      user_profile_email: data.users.find((u) => u.id === a.ownerId)?.email ?? '',
      s3_path: a.pathId,
      path: a.pathId,
      size: a.size,
      last_modified: a.createTime,
      content_type: a.contentType,
    });
  }
  return records;
}

/** A .tar.gz of a directory, its files below `top/` (Zulip's exports unpack into one folder). */
export async function tarGzDirectory(dir: string, top: string, target: string): Promise<void> {
  const { createWriteStream } = await import('node:fs');
  const { readdir, readFile } = await import('node:fs/promises');
  const { createGzip } = await import('node:zlib');
  const { finished } = await import('node:stream/promises');
  const tarStream = (await import('tar-stream')).default;
  const pack = tarStream.pack();
  const out = pack.pipe(createGzip()).pipe(createWriteStream(target));
  const walk = async (sub: string): Promise<void> => {
    for (const entry of await readdir(join(dir, sub), { withFileTypes: true })) {
      const rel = sub ? `${sub}/${entry.name}` : entry.name;
      if (entry.isDirectory()) await walk(rel);
      else {
        const data = await readFile(join(dir, rel));
        await new Promise<void>((resolve, reject) =>
          pack.entry({ name: `${top}/${rel}`, size: data.length }, data, (err) => (err ? reject(err) : resolve())),
        );
      }
    }
  };
  await walk('');
  pack.finalize();
  await finished(out);
}
