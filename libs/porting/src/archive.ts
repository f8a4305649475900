import { createReadStream, createWriteStream, lstatSync, realpathSync } from 'node:fs';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { isAbsolute, join, posix, relative, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform, type Readable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import tarStream from 'tar-stream';
import yauzl from 'yauzl';
import { ImportError } from './loader.js';

/**
 * What an archive may hold before it is refused as a bomb: the total and per-file uncompressed size, the number of
 * entries, and how many times larger than the archive (or an entry than its compressed bytes) the contents may be.
 */
export interface ArchiveLimits {
  maxTotalBytes: number;
  maxFileBytes: number;
  maxEntries: number;
  /** Uncompressed ÷ compressed, checked once the contents pass `ratioFloorBytes`. */
  maxRatio: number;
  ratioFloorBytes: number;
}

export const DEFAULT_LIMITS: ArchiveLimits = {
  maxTotalBytes: 64 * 1024 ** 3,
  maxFileBytes: 8 * 1024 ** 3,
  maxEntries: 2_000_000,
  // JSON compresses 5–20 times; a bomb's zeros a thousand.
  maxRatio: 200,
  ratioFloorBytes: 32 * 1024 ** 2,
};

/**
 * An entry's path as it will be written below the target, or an error: no absolute paths, drive letters,
 * backslashes, NUL, `..` or empty segments escaping the target (Zulip's importers refuse the same).
 */
export function safeEntryPath(name: string): string {
  if (name.includes('\0')) throw new ImportError('a path contains NUL', name);
  if (name.includes('\\')) throw new ImportError('a path contains a backslash', name);
  if (isAbsolute(name) || /^[a-zA-Z]:/.test(name)) throw new ImportError('an absolute path', name);
  const normalized = posix.normalize(name);
  if (normalized.split('/').includes('..') || normalized.startsWith('/'))
    throw new ImportError('a path leaving the export', name);
  return normalized.replace(/^\.\//, '').replace(/\/$/, '');
}

class Budget {
  total = 0;
  entries = 0;
  constructor(
    private readonly limits: ArchiveLimits,
    private readonly archiveBytes: number,
  ) {}

  entry(name: string): void {
    if (++this.entries > this.limits.maxEntries)
      throw new ImportError(`more than ${this.limits.maxEntries} entries: refused as an archive bomb`);
    void name;
  }

  /** Counts bytes as they are written; throws past a limit (whatever the entry's header claimed). */
  counter(name: string, compressedBytes: number | null): Transform {
    let written = 0;
    const limits = this.limits;
    return new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        written += chunk.length;
        this.total += chunk.length;
        if (written > limits.maxFileBytes)
          return callback(new ImportError(`larger than ${limits.maxFileBytes} bytes uncompressed: refused`, name));
        if (this.total > limits.maxTotalBytes)
          return callback(new ImportError(`the export is larger than ${limits.maxTotalBytes} bytes uncompressed: refused`));
        if (compressedBytes !== null && written > limits.ratioFloorBytes && written > compressedBytes * limits.maxRatio)
          return callback(new ImportError(`compressed more than ${limits.maxRatio} times: refused as an archive bomb`, name));
        if (this.total > limits.ratioFloorBytes && this.total > this.archiveBytes * limits.maxRatio)
          return callback(new ImportError(`the export is more than ${limits.maxRatio} times its archive: refused as an archive bomb`));
        callback(null, chunk);
      },
    });
  }
}

async function writeEntry(target: string, path: string, source: Readable, counter: Transform): Promise<void> {
  const file = join(target, path);
  await mkdir(join(file, '..'), { recursive: true });
  // `wx`: a second entry of the same name fails rather than replacing the first.
  await pipeline(source, counter, createWriteStream(file, { flags: 'wx', mode: 0o600 }));
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;

async function extractZip(file: string, target: string, limits: ArchiveLimits): Promise<void> {
  const size = (await stat(file)).size;
  const budget = new Budget(limits, size);
  const zip = await new Promise<yauzl.ZipFile>((ok, fail) =>
    yauzl.open(file, { lazyEntries: true, autoClose: true, strictFileNames: true, validateEntrySizes: true }, (err, z) =>
      err ? fail(new ImportError(`not a readable zip file (${err.message})`)) : ok(z),
    ),
  );
  await new Promise<void>((done, fail) => {
    const failWith = (err: unknown) => {
      zip.close();
      fail(err instanceof ImportError ? err : new ImportError(err instanceof Error ? err.message : String(err)));
    };
    zip.on('error', failWith);
    zip.on('end', () => done());
    zip.on('entry', (entry: yauzl.Entry) => {
      void (async () => {
        budget.entry(entry.fileName);
        const path = safeEntryPath(entry.fileName);
        const mode = (entry.externalFileAttributes >>> 16) & S_IFMT;
        const isDir = entry.fileName.endsWith('/');
        // Unix modes: only regular files and directories (no symbolic links, devices or sockets).
        if (mode !== 0 && mode !== S_IFREG && mode !== S_IFDIR)
          throw new ImportError('not a regular file (a symbolic link or device): refused', entry.fileName);
        if (isDir || path === '') {
          if (path !== '') await mkdir(join(target, path), { recursive: true });
          zip.readEntry();
          return;
        }
        if (entry.uncompressedSize > limits.maxFileBytes)
          throw new ImportError(`larger than ${limits.maxFileBytes} bytes uncompressed: refused`, entry.fileName);
        const stream = await new Promise<Readable>((ok, no) =>
          zip.openReadStream(entry, (err, s) => (err ? no(err) : ok(s))),
        );
        await writeEntry(target, path, stream, budget.counter(entry.fileName, entry.compressedSize));
        zip.readEntry();
      })().catch(failWith);
    });
    zip.readEntry();
  });
}

async function extractTar(file: string, target: string, limits: ArchiveLimits, gzip: boolean): Promise<void> {
  const size = (await stat(file)).size;
  const budget = new Budget(limits, size);
  const extract = tarStream.extract();
  const done = new Promise<void>((ok, fail) => {
    extract.on('entry', (header, stream, next) => {
      void (async () => {
        budget.entry(header.name);
        const path = safeEntryPath(header.name);
        if (header.type === 'directory') {
          if (path !== '') await mkdir(join(target, path), { recursive: true });
          stream.resume();
          return;
        }
        if (header.type !== 'file' && header.type !== 'contiguous-file')
          throw new ImportError(`not a regular file (${header.type}): refused`, header.name);
        if ((header.size ?? 0) > limits.maxFileBytes)
          throw new ImportError(`larger than ${limits.maxFileBytes} bytes uncompressed: refused`, header.name);
        await writeEntry(target, path, stream as unknown as Readable, budget.counter(header.name, null));
      })().then(
        () => next(),
        (err: unknown) => {
          stream.resume();
          extract.destroy(err as Error);
        },
      );
    });
    extract.on('finish', () => ok());
    extract.on('error', (err) => fail(err));
  });
  const source = createReadStream(file);
  try {
    await Promise.all([gzip ? pipeline(source, createGunzip(), extract) : pipeline(source, extract), done]);
  } catch (err) {
    if (err instanceof ImportError) throw err;
    const message = err instanceof Error ? err.message : String(err);
    throw new ImportError(`the archive is damaged or truncated (${message})`);
  }
}

/** The export's root once extracted: a lone top-level folder (Zulip's `zulip-export-…/`) is stepped into. */
async function rootOf(dir: string): Promise<string> {
  const entries = await readdir(dir, { withFileTypes: true });
  if (entries.length === 1 && entries[0]!.isDirectory()) return rootOf(join(dir, entries[0]!.name));
  return dir;
}

/**
 * Makes an export readable as a directory: a directory is used where it is; a .zip, .tar.gz (.tgz) or .tar is
 * extracted into `target` under the limits, refusing paths that leave it, links and devices, and bombs. Returns
 * the export's root.
 */
export async function openExport(from: string, target: string, limits: ArchiveLimits = DEFAULT_LIMITS): Promise<string> {
  const info = await stat(from).catch(() => null);
  if (!info) throw new ImportError(`no such file or directory: ${from}`);
  if (info.isDirectory()) return rootOf(from);
  await mkdir(target, { recursive: true });
  const lower = from.toLowerCase();
  if (lower.endsWith('.zip')) await extractZip(from, target, limits);
  else if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) await extractTar(from, target, limits, true);
  else if (lower.endsWith('.tar')) await extractTar(from, target, limits, false);
  else throw new ImportError(`${from}: expected a directory, a .zip, a .tar.gz or a .tar`);
  return rootOf(target);
}

/**
 * The absolute path of a file the export names (an upload, an avatar), or an error when the name leaves the export's
 * root, through `..`, an absolute path or a symbolic link.
 */
export function exportFile(root: string, name: string): string {
  const path = resolve(root, safeEntryPath(name));
  const realRoot = realpathSync(root);
  let real: string;
  try {
    if (lstatSync(path).isSymbolicLink()) throw new ImportError('a symbolic link: refused', name);
    real = realpathSync(path);
  } catch (err) {
    if (err instanceof ImportError) throw err;
    throw new ImportError('the file is missing from the export', name);
  }
  const rel = relative(realRoot, real);
  if (rel.startsWith('..') || isAbsolute(rel) || rel.split(sep).includes('..'))
    throw new ImportError('a path leaving the export', name);
  return real;
}
