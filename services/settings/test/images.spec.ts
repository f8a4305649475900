import { imageKind } from '../src/domain/images';

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A PNG with an `acTL` chunk before its image data (an APNG). */
function apng(): Buffer {
  const chunk = Buffer.alloc(20);
  chunk.writeUInt32BE(8, 0);
  chunk.write('acTL', 4, 'latin1');
  return Buffer.concat([PNG.subarray(0, 33), chunk, PNG.subarray(33)]);
}

describe('emoji image formats', () => {
  it('tells formats from their bytes, whatever the upload claims', () => {
    expect(imageKind(PNG)).toEqual({ extension: 'png', contentType: 'image/png', animated: false });
    expect(imageKind(GIF)).toEqual({ extension: 'gif', contentType: 'image/gif', animated: false });
    expect(imageKind(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))?.extension).toBe('jpg');
    const webp = Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'), Buffer.alloc(8)]);
    expect(imageKind(webp)).toEqual({ extension: 'webp', contentType: 'image/webp', animated: false });
  });

  it('recognises animation: an APNG, a GIF with several frames, an animated WebP', () => {
    expect(imageKind(apng())?.animated).toBe(true);
    const frame = GIF.subarray(13, GIF.length - 1);
    expect(imageKind(Buffer.concat([GIF.subarray(0, GIF.length - 1), frame, Buffer.from([0x3b])]))?.animated).toBe(
      true,
    );
    const animated = Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8XANIM', 'latin1'), Buffer.alloc(8)]);
    expect(imageKind(animated)?.animated).toBe(true);
  });

  it('refuses anything else', () => {
    expect(imageKind(Buffer.from('49492a000800000000000000', 'hex'))).toBeNull();
    expect(imageKind(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(imageKind(Buffer.alloc(0))).toBeNull();
  });
});
