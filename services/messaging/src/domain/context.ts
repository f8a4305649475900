import type { Logger } from '@confab/logging';
import type { AttachmentStore, ChannelFolderStore, ChannelStore, DefaultChannelStore } from './channel-store.js';
import type { MessageEditStore } from './edit-store.js';
import type {
  MessageStore,
  ReactionStore,
  ReadReceiptSource,
  SubmessageStore,
  UserTopicStore,
} from './message-store.js';
import type { DirectoryPort, PeopleReader } from './people.js';
import type { Permissions } from './permissions.js';
import type { ExportStore, LinkifierStore, LinkifierValidator, PlaygroundStore } from './realm-content-store.js';
import type { Renderer } from './render.js';
import type { RetentionStore } from './retention-store.js';
import type { ScheduledMessageStore } from './scheduled-store.js';
import type { MessagingDatabase } from './store.js';
import type { FileStore, UnitOfWorkPort } from './storage.js';
import type { DraftStore, SavedSnippetStore } from './user-content-store.js';

/**
 * What the domain functions work with: the storage ports this domain declares (implemented by repositories/), cached
 * lookups, permission checks and the renderer.
 */
export interface Domain {
  /** Units of work over one store: `db.write(realmId, store => …)` (the way every change is to be written). */
  db: MessagingDatabase;
  /** The scheduled batches' unit of work and events of no change (typing); every other change goes through `db`. */
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
