import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_LIMITS, openExport, type ArchiveLimits } from './archive.js';
import { ImportError, type ImportEvent, type LoaderProgress, type ServiceLoader, type StageResult } from './loader.js';
import { GuardedHttpClient } from '@confab/http';
import type { FailedFetch, ImportSource, LinkedFile, ModelMessage, ModelUpload, ModelUser } from './model.js';
import { RemoteImages, type FetchLimits } from './remote.js';
import { modelPath, NdjsonWriter, writeJson } from './ndjson.js';
import type { Progress } from './progress.js';
import { MattermostReader } from './sources/mattermost.js';
import { SlackReader } from './sources/slack.js';
import { ActivityTracker, newPathId, type IdMaps, type SourceReader, type SourceStructure } from './sources/source.js';
import { ZulipReader } from './sources/zulip.js';
import { remapStructure } from './remap.js';

/** The services taking part, each behind its loader; settings commits last (the import's commit point). */
export interface ImportLoaders {
  settings: ServiceLoader;
  groups: ServiceLoader;
  messaging: ServiceLoader;
  push: ServiceLoader;
  events: ServiceLoader;
}

export interface ImportOptions {
  source: ImportSource;
  /** A directory, .zip, .tar.gz or .tar. */
  from: string;
  subdomain: string;
  /** A scratch directory of the import's own (the archive is extracted and the model written below it). */
  workDir: string;
  /** The server's host, for placeholder addresses. */
  domain: string;
  slackUsers?: string;
  /** Slack's emoji.list answer (the custom emoji). */
  slackEmoji?: string;
  team?: string;
  limits?: ArchiveLimits;
  /**
   * The guarded client images the export names by URL are fetched with (Slack's avatars and emoji), built from the
   * operator's allow-list; default: one that reaches public addresses only.
   */
  http?: GuardedHttpClient;
  fetchLimits?: FetchLimits;
  loaders: ImportLoaders;
  /** Checks that can fail before the long part (the subdomain is valid and free). */
  preflight?: () => Promise<void>;
  progress: Progress;
  log: (line: string) => void;
}

export interface ImportSummary {
  realmId: number;
  subdomain: string;
  counts: Record<string, number>;
  linkedFiles: LinkedFile[];
  /** Images the export names by URL that could not be fetched. */
  failedFetches: FailedFetch[];
  notes: string[];
  seconds: number;
}

function readerFor(options: ImportOptions, root: string): SourceReader & { total?: number } {
  const remote = new RemoteImages(options.http ?? new GuardedHttpClient(), options.workDir, options.fetchLimits);
  const common = {
    root,
    domain: options.domain,
    slackUsers: options.slackUsers,
    slackEmoji: options.slackEmoji,
    remote,
    team: options.team,
  };
  switch (options.source) {
    case 'slack':
      return new SlackReader(common);
    case 'mattermost':
      return new MattermostReader(common);
    case 'zulip':
      return new ZulipReader(common);
  }
}

function mapOf(kind: string, ids: number[] | undefined, count: number): (local: number) => number {
  if (count > 0 && (!ids || ids.length !== count)) throw new Error(`the ${kind} ids were not allocated`);
  return (local) => {
    const id = ids?.[local - 1];
    if (id === undefined) throw new Error(`no ${kind} ${local} in the export`);
    return id;
  };
}

/**
 * Imports an export as a new organization (docs/architecture.md, "Moving organizations in and out"): the export is
 * read into the neutral model with ids the owning services allocated, each service stages its part in a
 * transaction of its own database and the copies of the others' facts, and only when every part is staged do they
 * commit — settings last, since without its organization and users nothing of the others is reachable. A failure
 * before that rolls every part back; a failure among the commits removes the parts already committed.
 */
export async function runImport(options: ImportOptions): Promise<ImportSummary> {
  const started = Date.now();
  const { loaders, progress, log } = options;
  const all: [string, ServiceLoader][] = Object.entries(loaders);
  const committed: [string, ServiceLoader][] = [];
  let realmId: number | null = null;
  try {
    await options.preflight?.();
    log(`reading the ${options.source} export ${options.from}`);
    const root = await openExport(options.from, join(options.workDir, 'source'), options.limits ?? DEFAULT_LIMITS);
    const reader = readerFor(options, root);
    const structure = await reader.structure();
    await removeLeftovers(loaders, log);

    const settingsIds = await loaders.settings.allocate({
      realm: 1,
      users: structure.users.length,
      profile_fields: structure.profileFields.length,
      emoji: structure.emoji.length,
    });
    const messagingIds = await loaders.messaging.allocate({ channels: structure.channels.length });
    const groupIds = await loaders.groups.allocate({ groups: structure.groups.length });
    realmId = settingsIds.realm![0]!;
    const ids: IdMaps = {
      realmId,
      user: mapOf('user', settingsIds.users, structure.users.length),
      field: mapOf('profile field', settingsIds.profile_fields, structure.profileFields.length),
      emoji: mapOf('emoji', settingsIds.emoji, structure.emoji.length),
      channel: mapOf('channel', messagingIds.channels, structure.channels.length),
      group: mapOf('group', groupIds.groups, structure.groups.length),
    };
    const model = remapStructure(structure, ids);
    await mkdir(join(options.workDir, 'model'), { recursive: true });
    await writeModel(options, model, realmId);

    const { linkedFiles, notes, messages } = await readMessages(options, reader, ids, model.users);
    log(`read ${messages} messages, ${model.users.length} users and ${model.channels.length} channels`);

    const input = { workDir: options.workDir, sourceRoot: root, realmId };
    const onProgress = (p: LoaderProgress) => {
      progress.start(p.phase, p.total);
      progress.update(p.done);
    };
    const stage = async (name: string, loader: ServiceLoader): Promise<StageResult> => {
      let phase = '';
      const result = await loader.stage(input, (p) => {
        if (p.phase !== phase) {
          phase = p.phase;
          onProgress(p);
        } else progress.update(p.done, p.total);
      });
      progress.finish();
      log(`${name}: staged ${Object.entries(result.counts).map(([k, v]) => `${v} ${k}`).join(', ') || 'nothing'}`);
      return result;
    };
    const settings = await stage('settings', loaders.settings);
    await loaders.groups.apply(settings.events);
    const groups = await stage('groups', loaders.groups);
    await loaders.settings.apply(groups.events);
    const copies: ImportEvent[] = [...settings.events, ...groups.events];
    await loaders.messaging.apply(copies);
    const messaging = await stage('messaging', loaders.messaging);
    await loaders.push.apply(copies);
    await loaders.events.apply(copies);

    for (const [name, loader] of all) {
      if (name === 'settings') continue;
      await loader.commit();
      committed.push([name, loader]);
    }
    await loaders.settings.commit();
    committed.push(['settings', loaders.settings]);

    const counts = { ...settings.counts, ...groups.counts, ...messaging.counts };
    return {
      realmId,
      subdomain: options.subdomain,
      counts,
      linkedFiles,
      failedFetches: structure.failedFetches ?? [],
      notes: [...notes, ...(settings.notes ?? []), ...(groups.notes ?? []), ...(messaging.notes ?? [])],
      seconds: (Date.now() - started) / 1000,
    };
  } catch (err) {
    progress.finish();
    const done = new Set(committed.map(([name]) => name));
    for (const [name, loader] of all) {
      if (done.has(name)) continue;
      await loader.abort().catch((e: unknown) => log(`${name}: rolling back failed: ${String(e)}`));
    }
    if (realmId !== null) {
      for (const [name, loader] of committed) {
        await loader.purge(realmId).catch((e: unknown) => log(`${name}: removing the committed part failed: ${String(e)}`));
      }
    }
    throw err;
  }
}

/**
 * An import interrupted between its commits (the process killed) leaves parts of an organization that settings
 * never got: they are unreachable (every request needs a user of settings), and removed here before the next one.
 * The other services are read first, settings last: an organization reaches them only through settings' events,
 * after settings committed it, so one created while this runs is in settings' answer and is left alone (read the
 * other way round, a world created in between was taken for a leftover and removed from groups and messaging). The
 * caller holds the one-import-at-a-time lock, so no other import's committed parts are waiting for settings' commit.
 */
export async function removeLeftovers(loaders: ImportLoaders, log: (line: string) => void): Promise<void> {
  const held: [string, ServiceLoader, number[]][] = [];
  for (const [name, loader] of Object.entries(loaders)) {
    if (name !== 'settings') held.push([name, loader, await loader.realms()]);
  }
  const owned = new Set(await loaders.settings.realms());
  for (const [name, loader, realms] of held) {
    for (const realm of realms) {
      if (owned.has(realm)) continue;
      log(`${name}: removing the leftovers of an interrupted import (organization ${realm})`);
      await loader.purge(realm);
    }
  }
}

async function writeModel(
  options: ImportOptions,
  model: ReturnType<typeof remapStructure>,
  realmId: number,
): Promise<void> {
  const dir = options.workDir;
  const name = options.source === 'zulip' && model.realm.name ? model.realm.name : options.subdomain;
  await writeJson(modelPath(dir, 'realm'), { ...model.realm, id: realmId, subdomain: options.subdomain, name });
  const lists: [Parameters<typeof modelPath>[1], unknown[]][] = [
    ['profileFields', model.profileFields],
    ['emoji', model.emoji],
    ['channels', model.channels],
    ['groups', model.groups],
    ['userTopics', model.userTopics],
  ];
  for (const [file, values] of lists) {
    const writer = new NdjsonWriter(modelPath(dir, file));
    for (const value of values) await writer.write(value);
    await writer.close();
  }
}

/** The second pass: messages and uploads into the model, users (with Zulip's long-term idle rule) after them. */
async function readMessages(
  options: ImportOptions,
  reader: SourceReader & { total?: number },
  ids: IdMaps,
  users: ModelUser[],
): Promise<{ linkedFiles: LinkedFile[]; notes: string[]; messages: number }> {
  const dir = options.workDir;
  const messages = new NdjsonWriter<ModelMessage>(modelPath(dir, 'messages'));
  const uploads = new NdjsonWriter<ModelUpload>(modelPath(dir, 'uploads'));
  const linkedFiles: LinkedFile[] = [];
  const notes: string[] = [];
  const activity = new ActivityTracker();
  const known = new Set(users.map((u) => u.id));
  options.progress.start('reading', reader.total ?? null);
  await reader.messages(ids, {
    async message(message) {
      if (!known.has(message.senderId)) throw new ImportError(`the sender ${message.senderId} is not among the users`, message.ref);
      activity.sent(message.senderId, message.dateSent);
      await messages.write(message);
      options.progress.update(messages.count);
    },
    async upload(upload) {
      const pathId = upload.pathId ?? newPathId(ids.realmId, upload.fileName);
      await uploads.write({ ...upload, pathId });
      return { index: uploads.count - 1, pathId };
    },
    linked(file) {
      linkedFiles.push(file);
    },
    note(text) {
      notes.push(text);
    },
  });
  options.progress.finish();
  await messages.close();
  await uploads.close();
  const writer = new NdjsonWriter<ModelUser>(modelPath(dir, 'users'));
  for (const user of users) {
    await writer.write({ ...user, longTermIdle: user.longTermIdle ?? activity.isIdle(user.id) });
  }
  await writer.close();
  return { linkedFiles, notes, messages: messages.count };
}

export type { SourceStructure };
