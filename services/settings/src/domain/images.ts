/** What an uploaded image is, from its first bytes (never from the name or type the client claims). */
export interface ImageKind {
  extension: 'png' | 'gif' | 'jpg' | 'webp';
  contentType: string;
  animated: boolean;
}

const ascii = (data: Buffer, start: number, end: number) => data.subarray(start, end).toString('latin1');

/** The number of frames a GIF announces with graphic control extensions (enough to tell still from animated). */
function gifFrames(data: Buffer): number {
  let frames = 0;
  for (let i = 0; i + 2 < data.length && frames < 2; i++) {
    if (data[i] === 0x21 && data[i + 1] === 0xf9 && data[i + 2] === 0x04) frames++;
  }
  return frames;
}

/** An APNG has an `acTL` chunk before its image data. */
function pngAnimated(data: Buffer): boolean {
  for (let offset = 8; offset + 8 <= data.length;) {
    const length = data.readUInt32BE(offset);
    const type = ascii(data, offset + 4, offset + 8);
    if (type === 'acTL') return true;
    if (type === 'IDAT') return false;
    offset += 12 + length;
  }
  return false;
}

/** Zulip's emoji formats: PNG, GIF, JPEG and WebP, still or animated; anything else is refused. */
export function imageKind(data: Buffer): ImageKind | null {
  if (data.length >= 8 && data.readUInt32BE(0) === 0x89504e47 && data.readUInt32BE(4) === 0x0d0a1a0a)
    return { extension: 'png', contentType: 'image/png', animated: pngAnimated(data) };
  if (data.length >= 6 && (ascii(data, 0, 6) === 'GIF87a' || ascii(data, 0, 6) === 'GIF89a'))
    return { extension: 'gif', contentType: 'image/gif', animated: gifFrames(data) > 1 };
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff)
    return { extension: 'jpg', contentType: 'image/jpeg', animated: false };
  if (data.length >= 16 && ascii(data, 0, 4) === 'RIFF' && ascii(data, 8, 12) === 'WEBP')
    return { extension: 'webp', contentType: 'image/webp', animated: data.includes('ANIM', 12, 'latin1') };
  return null;
}

const CONTENT_TYPES: Record<string, string> = {
  png: 'image/png',
  gif: 'image/gif',
  jpg: 'image/jpeg',
  webp: 'image/webp',
};

/** The content type to serve a stored image with, from its file name's extension. */
export function contentTypeOf(fileName: string): string {
  return CONTENT_TYPES[fileName.split('.').pop() ?? ''] ?? 'application/octet-stream';
}
