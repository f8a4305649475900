import type { Logger } from '@confab/logging';
import { keptConnections, type MessagingConfig } from './config.js';
import { noOthersChanges, type Domain } from './domain/context.js';
import { Permissions } from './domain/permissions.js';
import { ImageProxyUrls } from './rendering/camo.js';
import { MarkdownRenderer } from './rendering/markdown-renderer.js';
import { Backfill, SettingsClient } from './events/backfill.js';
import { AttachmentsRepository } from './repositories/attachments.repository.js';
import { ChannelSettingsRepository } from './repositories/channel-settings.repository.js';
import { ChannelsRepository } from './repositories/channels.repository.js';
import { DefaultChannelsRepository } from './repositories/default-channels.repository.js';
import { ChannelFoldersRepository } from './repositories/channel-folders.repository.js';
import { LinkifiersRepository, PlaygroundsRepository } from './repositories/organization-content.repository.js';
import { markdownLinkifierValidator } from './rendering/linkifier-validator.js';
import { RealmExportsRepository } from './repositories/realm-exports.repository.js';
import { Directory, type DirectoryForgets } from './repositories/directory.js';
import { PrismaMessagingDatabase } from './repositories/messaging-database.js';
import { MessageEditRepository } from './repositories/message-edit.repository.js';
import { MessagesRepository } from './repositories/messages.repository.js';
import { openDatabase } from './repositories/database.js';
import type { Tx } from './repositories/prisma.js';
import { ReactionsRepository } from './repositories/reactions.repository.js';
import { ReadReceiptsRepository } from './repositories/read-receipts.repository.js';
import { ReadModelRepository } from './repositories/readmodel.repository.js';
import { RetentionRepository } from './repositories/retention.repository.js';
import { SubmessagesRepository } from './repositories/submessages.repository.js';
import { Store } from './repositories/store.js';
import { UserTopicsRepository } from './repositories/user_topics.repository.js';
import { DraftsRepository } from './repositories/drafts.repository.js';
import { SavedSnippetsRepository } from './repositories/saved_snippets.repository.js';
import { ScheduledMessagesRepository } from './repositories/scheduled_messages.repository.js';
import { LocalDiskStore } from './storage/local-disk.js';

/** Wires repositories, caches, permissions, renderer and file store (shared by the API process and the worker). */
export function buildDomain(
  config: MessagingConfig,
  logger: Logger,
  afterCommit: () => void,
  forgets?: DirectoryForgets,
) {
  // One pool (docs/architecture.md, "PostgreSQL connections"); of it, the connections that plan each shared statement
  // once (sql.ts, `planOnce`): one per group-commit lane, and at least two for the scheduled worker's side-by-side
  // batches (PARALLEL_BATCHES).
  const { prisma, sql, close } = openDatabase(config.db.url, config.db.poolSize, keptConnections(config.db));
  const store = new Store(prisma, sql, afterCommit);
  const imageProxy = new ImageProxyUrls(config.imageProxy.key);
  const readModel = new ReadModelRepository(store);
  const channels = new ChannelsRepository(store);
  const linkifiers = new LinkifiersRepository(store);
  const directory = new Directory(readModel, channels, config.cacheTtlMs, linkifiers, forgets);
  const drafts = new DraftsRepository(store);
  const savedSnippets = new SavedSnippetsRepository(store);
  const channelFolders = new ChannelFoldersRepository(store);
  const playgrounds = new PlaygroundsRepository(store);
  const exports = new RealmExportsRepository(store);
  const defaultChannels = new DefaultChannelsRepository(store);
  const channelSettings = new ChannelSettingsRepository(store);
  const scheduledMessages = new ScheduledMessagesRepository(store);
  const attachments = new AttachmentsRepository(store);
  const messages = new MessagesRepository(store, { lanes: config.db.sendLanes, maxBatch: config.db.sendBatch });
  const reactions = new ReactionsRepository(store);
  const retention = new RetentionRepository(store);
  const userTopics = new UserTopicsRepository(store);
  const edits = new MessageEditRepository(store);
  const submessages = new SubmessagesRepository(store);
  const people = {
    in: (tx: Tx) => ({ activeUsersInRealm: (realmId: number) => readModel.activeUsersInRealm(realmId, tx) }),
  };
  const db = new PrismaMessagingDatabase(
    store,
    {
      drafts,
      savedSnippets,
      channelFolders,
      linkifiers,
      playgrounds,
      exports,
      channels,
      defaultChannels,
      channelSettings,
      people,
      scheduledMessages,
      attachments,
      messages,
      retention,
    },
    {
      edits,
      submessages,
      flags: { on: (executor) => messages.flagsOn(executor) },
      reactions,
      userTopics,
      sql: { on: (executor) => executor },
    },
  );
  const backfill = new Backfill(
    new SettingsClient(config.settingsUrl, config.internalSecret),
    store,
    readModel,
    logger,
  );
  const domain = {
    db,
    store,
    readModel,
    channels,
    defaultChannels,
    channelFolders,
    linkifiers,
    playgrounds,
    exports,
    linkifierValidator: markdownLinkifierValidator,
    messages,
    edits,
    receipts: new ReadReceiptsRepository(store.sql),
    submessages,
    retention,
    attachments,
    userTopics,
    reactions,
    drafts,
    scheduledMessages,
    savedSnippets,
    directory,
    permissions: new Permissions({
      groupsOf: (realmId) => directory.groupsOf(realmId),
      memberGroupIds: (userId, groupIds) => readModel.memberGroupIds(userId, groupIds),
    }),
    renderer: new MarkdownRenderer(readModel, channels, directory, (url) => imageProxy.url(url)),
    files: new LocalDiskStore(config.uploads.dir),
    logger,
    fetchMissing: backfill,
    // main.ts puts the causal logs and the event bus behind it.
    othersChanges: noOthersChanges,
    limits: { maxFileBytes: config.uploads.maxFileBytes },
    secrets: { uploadUrls: config.uploads.urlKey },
  } satisfies Domain;
  return { domain, db, store, readModel, directory, prisma, sql, backfill, close };
}
