import { gzipSync } from 'node:zlib';

/** One ustar header block (512 bytes) for a regular file. */
function header(name: string, size: number, mtime: Date): Buffer {
  const block = Buffer.alloc(512, 0);
  const put = (text: string, offset: number, length: number) => block.write(text.slice(0, length), offset, 'utf8');
  const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, '0') + '\0';
  put(name, 0, 100);
  put(octal(0o644, 8), 100, 8);
  put(octal(0, 8), 108, 8);
  put(octal(0, 8), 116, 8);
  put(octal(size, 12), 124, 12);
  put(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 12);
  put('        ', 148, 8);
  put('0', 156, 1);
  put('ustar\0', 257, 6);
  put('00', 263, 2);
  let sum = 0;
  for (const byte of block) sum += byte;
  put(octal(sum, 7) + ' ', 148, 8);
  return block;
}

/** A gzipped tar archive of these files (Zulip's exports are .tar.gz). */
export function tarGz(files: readonly { name: string; data: Buffer }[], mtime = new Date()): Buffer {
  const parts: Buffer[] = [];
  for (const file of files) {
    parts.push(header(file.name, file.data.length, mtime), file.data);
    const pad = (512 - (file.data.length % 512)) % 512;
    if (pad > 0) parts.push(Buffer.alloc(pad, 0));
  }
  parts.push(Buffer.alloc(1024, 0));
  return gzipSync(Buffer.concat(parts));
}
