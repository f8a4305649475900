import type { Written } from '@confab/events';
import type { MessagingDatabase, MessagingStore } from '../domain/store.js';
import type { ChannelFoldersRepository } from './channel-folders.repository.js';
import type { DraftsRepository } from './drafts.repository.js';
import type { LinkifiersRepository, PlaygroundsRepository } from './organization-content.repository.js';
import type { Tx } from './prisma.js';
import type { RealmExportsRepository } from './realm-exports.repository.js';
import type { SavedSnippetsRepository } from './saved_snippets.repository.js';
import type { Store } from './store.js';

/** The repositories whose parts make up a unit of work's MessagingStore. */
export interface StoreParts {
  drafts: DraftsRepository;
  savedSnippets: SavedSnippetsRepository;
  channelFolders: ChannelFoldersRepository;
  linkifiers: LinkifiersRepository;
  playgrounds: PlaygroundsRepository;
  exports: RealmExportsRepository;
}

/**
 * Messaging's units of work (the domain's MessagingDatabase): one Prisma transaction through the Store's unit of work
 * (`@confab/events`: the outbox rows with the change, the relay woken after the commit), with every part of the
 * store joined to it.
 */
export class PrismaMessagingDatabase implements MessagingDatabase {
  constructor(
    private readonly store: Store,
    private readonly parts: StoreParts,
  ) {}

  write<T>(realmId: number, fn: (store: MessagingStore) => Promise<Written<T>>): Promise<T> {
    return this.store.transaction(async (tx) => {
      const written = await fn(this.storeIn(tx));
      const stray = written.events.find((record) => record.envelope.realm_id !== realmId);
      if (stray) throw new Error(`a write to organization ${realmId} produced an event of ${stray.envelope.realm_id}`);
      return written;
    });
  }

  private storeIn(tx: Tx): MessagingStore {
    const { drafts, savedSnippets, channelFolders, linkifiers, playgrounds, exports } = this.parts;
    return {
      drafts: drafts.in(tx),
      savedSnippets: savedSnippets.in(tx),
      channelFolders: channelFolders.in(tx),
      linkifiers: linkifiers.in(tx),
      playgrounds: playgrounds.in(tx),
      exports: exports.in(tx),
    };
  }
}
