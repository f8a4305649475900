import type { Logger } from '@confab/logging';
import type { AttachmentStore, ChannelStore } from './channel-store.js';
import type { MessageStore, ReactionStore, UserTopicStore } from './message-store.js';
import type { DirectoryPort, PeopleReader } from './people.js';
import type { ScheduledMessageStore } from './scheduled-store.js';
import type { FileStore, UnitOfWorkPort } from './storage.js';
import type { ChannelSettingsStore } from './channel-settings.js';
import type { DefaultChannelStore } from './default-channels.js';
import type { ChannelFolderStore } from './channel-folders.js';
import type { LinkifierStore, LinkifierValidator } from './linkifiers.js';
import type { PlaygroundStore } from './playgrounds.js';
import type { ExportStore } from './realm-exports.js';
import type { DraftStore } from './drafts.js';
import type { MessageEditStore } from './edit-store.js';
import type { Permissions } from './permissions.js';
import type { ReadReceiptSource } from './read-receipts.js';
import type { SavedSnippetStore } from './saved-snippets.js';
import type { SubmessageStore } from './submessages.js';
import type { Renderer } from './render.js';
import type { RetentionStore } from './retention.js';
import type { Realm, User } from './types.js';

/**
 * What the domain functions work with: the storage ports this domain declares (implemented by repositories/), cached
 * lookups, permission checks and the renderer.
 */
export interface Domain {
  store: UnitOfWorkPort;
  readModel: PeopleReader;
  channels: ChannelStore;
  defaultChannels: DefaultChannelStore;
  channelFolders: ChannelFolderStore;
  linkifiers: LinkifierStore;
  playgrounds: PlaygroundStore;
  exports: ExportStore;
  linkifierValidator: LinkifierValidator;
  messages: MessageStore;
  /** Editing and moving messages (a port this domain owns; docs/architecture.md, "Data access"). */
  edits: MessageEditStore;
  receipts: ReadReceiptSource;
  submessages: SubmessageStore;
  /** The archive of expired messages (message retention). */
  retention: RetentionStore;
  channelSettings: ChannelSettingsStore;
  attachments: AttachmentStore;
  userTopics: UserTopicStore;
  reactions: ReactionStore;
  drafts: DraftStore;
  scheduledMessages: ScheduledMessageStore;
  savedSnippets: SavedSnippetStore;
  directory: DirectoryPort;
  permissions: Permissions;
  renderer: Renderer;
  files: FileStore;
  logger: Logger;
  /** Fetches a user or organization this service has not heard of yet from its owner (settings). */
  fetchMissing: MissingFetcher;
  limits: { maxFileBytes: number };
  /**
   * Other users' own recent changes (read-your-writes for the people an action reaches): waits until this service has
   * applied what they changed a moment ago, e.g. a recipient who just turned typing notifications off.
   */
  othersChanges: OthersChanges;
  /** Keys this service signs with (temporary upload URLs). */
  secrets: { uploadUrls: string };
}

export interface OthersChanges {
  /** Returns once this service's copies reflect these users' recent changes (or after the wait limit). */
  settle(realmId: number, userIds: readonly number[]): Promise<void>;
}

/** Where nothing is to be waited for (tests that build a domain without an event bus). */
export const noOthersChanges: OthersChanges = { settle: async () => undefined };

export interface MissingFetcher {
  user(id: number): Promise<void>;
  /** Several users at once (one page from the owner, starting at the smallest id). */
  users(ids: readonly number[]): Promise<void>;
  realm(id: number): Promise<void>;
}

/** The caller of a request: their read-model record and organization. */
export interface Actor {
  user: User;
  realm: Realm;
  requestId: string;
}
