import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ImageFiles } from '../domain/ports.js';

/** Uploaded images in a directory: `<dir>/<realm id>/<file name>` (names are chosen by us, never by the client). */
export class DirectoryImageFiles implements ImageFiles {
  constructor(private readonly dir: string) {}

  async save(realmId: number, fileName: string, data: Buffer): Promise<void> {
    const dir = join(this.dir, String(realmId));
    await mkdir(dir, { recursive: true });
    // Written aside and renamed, so a reader never sees half an image.
    const partial = join(dir, `.${fileName}.partial`);
    await writeFile(partial, data);
    await rename(partial, join(dir, fileName));
  }

  async read(realmId: number, fileName: string): Promise<Buffer | null> {
    try {
      return await readFile(join(this.dir, String(realmId), fileName));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async remove(realmId: number, fileName: string): Promise<void> {
    await rm(join(this.dir, String(realmId), fileName), { force: true });
  }
}
