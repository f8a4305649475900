import type { Written } from '@confab/events';
import type {
  AttachmentUnit,
  ChannelFolderUnit,
  ChannelSettingsUnit,
  ChannelUnit,
  DefaultChannelUnit,
} from './channel-store.js';
import type { EditUnit } from './edit-store.js';
import type { FlagUnit, MessageUnit, ReactionUnit, SubmessageUnit, UserTopicUnit } from './message-store.js';
import type { RetentionUnit } from './retention-store.js';
import type { SqlExecutor } from './storage.js';
import type { PeopleUnit } from './people.js';
import type { ScheduledMessageUnit } from './scheduled-store.js';
import type { ExportUnit, LinkifierUnit, PlaygroundUnit } from './realm-content-store.js';
import type { DraftUnit, SavedSnippetUnit } from './user-content-store.js';

export type { Written } from '@confab/events';

/**
 * The parts of the store written in plain SQL: what a unit of work on the plain pool offers (MessagingDatabase.
 * writeSql), for the hot paths whose every statement is plain SQL (an edit, a flag change, a reaction, a topic's
 * policy, a submessage).
 */
export interface PlainStore {
  /** One edit's rows, history and topic policies (the message locked first). */
  edits: EditUnit;
  submessages: SubmessageUnit;
  flags: FlagUnit;
  reactions: ReactionUnit;
  userTopics: UserTopicUnit;
  /**
   * The unit's statements as plain SQL, for the plain-SQL port methods that join a unit of work (the send statement,
   * MessageStore.sendIn, and the writes a send makes `alongside` it).
   */
  sql: SqlExecutor;
}

/**
 * What messaging's domain changes inside one unit of work (docs/architecture.md, "Data access"): one port per
 * resource, all joined to the same transaction. `repositories/` implements it; the domain never sees how. Reads
 * outside a write stay on the `Domain`'s ports.
 */
export interface MessagingStore extends PlainStore {
  drafts: DraftUnit;
  savedSnippets: SavedSnippetUnit;
  channelFolders: ChannelFolderUnit;
  linkifiers: LinkifierUnit;
  playgrounds: PlaygroundUnit;
  exports: ExportUnit;
  channels: ChannelUnit;
  defaultChannels: DefaultChannelUnit;
  channelSettings: ChannelSettingsUnit;
  /** This service's copies of people, read on the unit's connection (a transaction never waits for a second one). */
  people: PeopleUnit;
  scheduledMessages: ScheduledMessageUnit;
  attachments: AttachmentUnit;
  messages: MessageUnit;
  retention: RetentionUnit;
}

/** Units of work over the store, as groups and settings have them (`services/*\/src/domain/store.ts`). */
export interface MessagingDatabase {
  /**
   * Runs `fn` with the store in one transaction: its changes and the events it returns commit together, then the
   * outbox relay is woken. A unit of work writes to one organization, `realmId`: an event for another is refused
   * (the transaction rolls back).
   */
  write<T>(realmId: number, fn: (store: MessagingStore) => Promise<Written<T>>): Promise<T>;
  /**
   * The same unit of work for the housekeeping that spans organizations (the unclaimed uploads' cleanup, the
   * archive's purge): its events may be of any organization.
   */
  writeAcross<T>(fn: (store: MessagingStore) => Promise<Written<T>>): Promise<T>;
  /**
   * The same unit of work on the plain pool, with the store's plain-SQL parts only: a Prisma interactive
   * transaction costs several round trips and its query engine's CPU, more than a flag change itself.
   */
  writeSql<T>(realmId: number, fn: (store: PlainStore) => Promise<Written<T>>): Promise<T>;
}
