import { createReadStream, createWriteStream, existsSync, type WriteStream } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { MODEL_FILES } from './model.js';

/** A file of one JSON value per line, written in order with the stream's back-pressure respected. */
export class NdjsonWriter<T> {
  private readonly stream: WriteStream;
  private buffered: string[] = [];
  count = 0;

  constructor(path: string) {
    this.stream = createWriteStream(path);
  }

  async write(value: T): Promise<void> {
    this.buffered.push(JSON.stringify(value));
    this.count++;
    if (this.buffered.length >= 512) await this.flush();
  }

  private async flush(): Promise<void> {
    if (this.buffered.length === 0) return;
    const chunk = `${this.buffered.join('\n')}\n`;
    this.buffered = [];
    if (!this.stream.write(chunk)) await new Promise<void>((resolve) => this.stream.once('drain', resolve));
  }

  async close(): Promise<void> {
    await this.flush();
    await new Promise<void>((resolve, reject) => this.stream.end((err?: Error | null) => (err ? reject(err) : resolve())));
  }
}

/** The values of an NDJSON file, in order; a missing file has none. */
export async function* readNdjson<T>(path: string): AsyncGenerator<T> {
  if (!existsSync(path)) return;
  const lines = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of lines) if (line.length > 0) yield JSON.parse(line) as T;
}

export async function readAllNdjson<T>(path: string): Promise<T[]> {
  const out: T[] = [];
  for await (const value of readNdjson<T>(path)) out.push(value);
  return out;
}

/** Where the model's files of a working directory are. */
export function modelPath(workDir: string, file: keyof typeof MODEL_FILES): string {
  return join(workDir, 'model', MODEL_FILES[file]);
}

export async function writeJson(path: string, value: unknown): Promise<void> {
  await writeFile(path, JSON.stringify(value));
}

export async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await readFile(path, 'utf8')) as T;
}
