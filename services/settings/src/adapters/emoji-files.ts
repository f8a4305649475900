import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { EmojiFiles } from '../domain/ports.js';

/** Custom emoji images in a directory: `<dir>/<realm id>/<file name>` (names are `<id>.<ext>`, chosen by us). */
export class DirectoryEmojiFiles implements EmojiFiles {
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
}
