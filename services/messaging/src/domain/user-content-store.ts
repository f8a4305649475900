/** Zulip's DraftData, as the route parsed it (routes/drafts.routes.ts); `content` is not blank. */
export interface DraftData {
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  timestamp?: number | null | undefined;
}

export interface StoredDraft {
  id: number;
  userId: number;
  type: '' | 'stream' | 'private';
  to: number[];
  topic: string;
  content: string;
  lastEditTime: Date;
}

export type NewDraft = Omit<StoredDraft, 'id'>;

/** Drafts' storage (a port this domain owns; docs/architecture.md, "Data access"). */
export interface DraftStore {
  /** A user's drafts, oldest edit first. */
  list(userId: number): Promise<StoredDraft[]>;
  get(userId: number, id: number): Promise<StoredDraft | null>;
}

/** Drafts' changes, inside a unit of work (MessagingStore's `drafts`). */
export interface DraftUnit {
  /** The created drafts, by id. */
  createMany(drafts: readonly NewDraft[]): Promise<StoredDraft[]>;
  /** Replaces a draft's fields; false when it no longer exists. */
  update(draft: StoredDraft): Promise<boolean>;
  delete(userId: number, id: number): Promise<boolean>;
}

export interface StoredSnippet {
  id: number;
  realmId: number;
  userId: number;
  title: string;
  content: string;
  dateCreated: Date;
}

/** Saved snippets' storage (a port this domain owns; docs/architecture.md, "Data access"). */
export interface SavedSnippetStore {
  list(userId: number): Promise<StoredSnippet[]>;
}

/** Saved snippets' changes, inside a unit of work (MessagingStore's `savedSnippets`). */
export interface SavedSnippetUnit {
  create(data: { realmId: number; userId: number; title: string; content: string }): Promise<StoredSnippet>;
  /** The updated snippet, or null when the user has no snippet with that id. */
  update(userId: number, id: number, data: { title?: string; content?: string }): Promise<StoredSnippet | null>;
  /** False when the user has no snippet with that id. */
  delete(userId: number, id: number): Promise<boolean>;
}
