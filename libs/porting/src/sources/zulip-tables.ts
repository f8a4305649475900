import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ImportError } from '../loader.js';
import { readJsonFile } from './source.js';

/** Reading a Zulip export: its files, the cells of its `zerver_*` tables, and the ids the reader gives their rows. */

export type Row = Record<string, unknown>;
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const num = (v: unknown): number | null => (typeof v === 'number' ? v : null);
export const rows = (data: Row, table: string): Row[] => (Array.isArray(data[table]) ? (data[table] as Row[]) : []);
export const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);

/** What one of the export's recipients addresses (old ids). */
export interface OldRecipient {
  stream?: number;
  user?: number;
  huddle?: number;
}

/**
 * The export's ids to local ones (1, 2, … per kind, Zulip's old id → local id), and what its recipients address:
 * learnt reading the structure, used reading the messages.
 */
export interface ZulipIds {
  users: Map<number, number>;
  channels: Map<number, number>;
  groups: Map<number, number>;
  emoji: Map<number, number>;
  fields: Map<number, number>;
  /** Old recipient id → what it addresses. */
  recipients: Map<number, OldRecipient>;
  /** Old direct message group id → its members' local ids. */
  huddleMembers: Map<number, number[]>;
}

export function newZulipIds(): ZulipIds {
  return {
    users: new Map(),
    channels: new Map(),
    groups: new Map(),
    emoji: new Map(),
    fields: new Map(),
    recipients: new Map(),
    huddleMembers: new Map(),
  };
}

/** An old user id of realm.json as a local one. */
export type LocalUser = (old: unknown, what?: string) => number;

/** Local ids of realm.json's users; a row naming a user the export lacks is an error. */
export function localUsers(users: ReadonlyMap<number, number>): LocalUser {
  return (old, what = 'user') => {
    const id = users.get(Number(old));
    if (id === undefined)
      throw new ImportError(`refers to ${what} ${String(old)}, which the export lacks`, 'realm.json');
    return id;
  };
}

/** The files of an extracted export. */
export class ZulipExportDir {
  constructor(private readonly root: string) {}

  path(name: string): string {
    return join(this.root, name);
  }

  has(name: string): boolean {
    return existsSync(this.path(name));
  }

  json(name: string): Promise<Row> {
    return readJsonFile<Row>(this.path(name), name);
  }

  /** A JSON file the export may leave out, empty then. */
  async optional(name: string): Promise<Row> {
    return this.has(name) ? this.json(name) : {};
  }

  /** The records.json of avatars/, emoji/ or uploads/. */
  async records(dir: string): Promise<Row[]> {
    const name = `${dir}/records.json`;
    return this.has(name) ? readJsonFile<Row[]>(this.path(name), name) : [];
  }

  /** messages-000001.json …, in order. */
  messageFiles(): string[] {
    return readdirSync(this.root)
      .filter((f) => /^messages-\d+\.json$/.test(f))
      .sort();
  }
}
