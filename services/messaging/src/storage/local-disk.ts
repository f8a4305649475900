import { createReadStream } from 'node:fs';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { FileStore } from '../domain/storage.js';

/** Files under one directory, at their path ids (`<realm>/<random>/<name>`). */
export class LocalDiskStore implements FileStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  /** The absolute path of a path id; ids that would escape the root are refused. */
  private pathOf(pathId: string): string {
    const full = resolve(join(this.root, pathId));
    if (!full.startsWith(this.root + sep)) throw new Error(`invalid path id ${pathId}`);
    return full;
  }

  async put(pathId: string, data: Buffer): Promise<void> {
    const full = this.pathOf(pathId);
    await mkdir(dirname(full), { recursive: true });
    await writeFile(full, data);
  }

  async get(pathId: string) {
    let full: string;
    try {
      full = this.pathOf(pathId);
    } catch {
      return null;
    }
    const info = await stat(full).catch(() => null);
    if (!info?.isFile()) return null;
    return { stream: createReadStream(full), size: info.size };
  }

  async delete(pathId: string): Promise<void> {
    await rm(this.pathOf(pathId), { force: true });
  }
}
