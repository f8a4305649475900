import type { Logger } from '@confab/logging';
import type { AttachmentsRepository } from '../repositories/attachments.repository.js';
import type { ChannelsRepository } from '../repositories/channels.repository.js';
import type { Directory } from '../repositories/directory.js';
import type { MessagesRepository } from '../repositories/messages.repository.js';
import type { ReactionsRepository } from '../repositories/reactions.repository.js';
import type { ReadModelRepository } from '../repositories/readmodel.repository.js';
import type { Store } from '../repositories/store.js';
import type { UserTopicsRepository } from '../repositories/user_topics.repository.js';
import type { ScheduledMessagesRepository } from '../repositories/scheduled_messages.repository.js';
import type { FileStore } from '../storage/file-store.js';
import type { ChannelSettingsStore } from './channel-settings.js';
import type { DraftStore } from './drafts.js';
import type { MessageEditStore } from './edit-store.js';
import type { Permissions } from './permissions.js';
import type { ReadReceiptSource } from './read-receipts.js';
import type { SavedSnippetStore } from './saved-snippets.js';
import type { SubmessageStore } from './submessages.js';
import type { Renderer } from './render.js';
import type { Realm, User } from './types.js';

/** What the domain functions work with: repositories, cached lookups, permission checks and the renderer. */
export interface Domain {
  store: Store;
  readModel: ReadModelRepository;
  channels: ChannelsRepository;
  messages: MessagesRepository;
  /** Editing and moving messages (a port this domain owns; docs/architecture.md, "Data access"). */
  edits: MessageEditStore;
  receipts: ReadReceiptSource;
  submessages: SubmessageStore;
  channelSettings: ChannelSettingsStore;
  attachments: AttachmentsRepository;
  userTopics: UserTopicsRepository;
  reactions: ReactionsRepository;
  drafts: DraftStore;
  scheduledMessages: ScheduledMessagesRepository;
  savedSnippets: SavedSnippetStore;
  directory: Directory;
  permissions: Permissions;
  renderer: Renderer;
  files: FileStore;
  logger: Logger;
  /** Fetches a user or organization this service has not heard of yet from its owner (settings). */
  fetchMissing: MissingFetcher;
  limits: { maxFileBytes: number };
  /** Keys this service signs with (temporary upload URLs). */
  secrets: { uploadUrls: string };
}

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
