/** A linkifier as stored (Zulip's RealmFilter). */
export interface StoredLinkifier {
  id: number;
  realmId: number;
  pattern: string;
  urlTemplate: string;
  order: number;
}

/** Linkifiers' storage (a port this domain owns; docs/architecture.md, "Data access"). */
export interface LinkifierStore {
  /** The organization's linkifiers in the order they apply (`order`, then id). */
  list(realmId: number): Promise<StoredLinkifier[]>;
}

export interface LinkifierUnit {
  /** Last in the order; null when the organization has that pattern already. */
  create(realmId: number, pattern: string, urlTemplate: string): Promise<StoredLinkifier | null>;
  /** False when the organization has no such linkifier; null when another has that pattern. */
  update(realmId: number, id: number, pattern: string, urlTemplate: string): Promise<boolean | null>;
  delete(realmId: number, id: number): Promise<boolean>;
  /** Sets each linkifier's order to its position in `ids`. */
  reorder(realmId: number, ids: readonly number[]): Promise<void>;
  list(realmId: number): Promise<StoredLinkifier[]>;
}

/** Checks patterns and URL templates as Zulip's validation does (an adapter over `@confab/markdown`). */
export interface LinkifierValidator {
  /** A linkifier's first problem (Zulip's RealmFilter validation), or null. */
  check(pattern: string, urlTemplate: string): { field: string; message: string } | null;
  /** The variables of an RFC 6570 template; null when it is not one. */
  variables(urlTemplate: string): Set<string> | null;
}

/** A code playground as stored (Zulip's RealmPlayground). */
export interface StoredPlayground {
  id: number;
  realmId: number;
  name: string;
  pygmentsLanguage: string;
  urlTemplate: string;
}

/** Code playgrounds' storage (a port this domain owns; docs/architecture.md, "Data access"). */
export interface PlaygroundStore {
  list(realmId: number): Promise<StoredPlayground[]>;
}

export interface PlaygroundUnit {
  /** Null when the organization has a playground of that language and name already. */
  create(data: Omit<StoredPlayground, 'id'>): Promise<StoredPlayground | null>;
  delete(realmId: number, id: number): Promise<boolean>;
  list(realmId: number): Promise<StoredPlayground[]>;
}

/** A data export as stored (Zulip's RealmExport). */
export interface StoredExport {
  id: number;
  realmId: number;
  actingUserId: number;
  exportType: number;
  dateRequested: Date;
  dateSucceeded: Date | null;
  dateFailed: Date | null;
  dateDeleted: Date | null;
  /** The archive, relative to the exports directory. */
  exportPath: string | null;
}

/** Exports' storage (a port this domain owns; docs/architecture.md, "Data access"). */
export interface ExportStore {
  list(realmId: number): Promise<StoredExport[]>;
  byId(id: number): Promise<StoredExport | null>;
}

export interface ExportUnit {
  create(data: { realmId: number; actingUserId: number; exportType: number }): Promise<StoredExport>;
  update(
    id: number,
    patch: Partial<Pick<StoredExport, 'dateSucceeded' | 'dateFailed' | 'dateDeleted' | 'exportPath'>>,
  ): Promise<void>;
  list(realmId: number): Promise<StoredExport[]>;
}

/** Where export archives are written and the job that writes them (adapters of the worker and the data directory). */
export interface ExportRunner {
  /** Queues the export's job. */
  enqueue(exportId: number): Promise<void>;
  /** Removes an archive; a missing one is no error. */
  remove(path: string): Promise<void>;
}
