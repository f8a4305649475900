import type { Readable } from 'node:stream';

/** Where uploaded files live: local disk here; an S3-compatible store implements the same interface. */
export interface FileStore {
  put(pathId: string, data: Buffer, contentType: string): Promise<void>;
  /** The file's bytes as a stream, or null when it does not exist. */
  get(pathId: string): Promise<{ stream: Readable; size: number } | null>;
  /** Removes the file; a missing file is not an error. */
  delete(pathId: string): Promise<void>;
}
