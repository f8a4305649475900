import sharp from 'sharp';
import type { ImageResizer } from '../domain/ports.js';

/** Zulip's resize_avatar with sharp (libvips): turned upright by its EXIF orientation, cropped to the centre, PNG. */
export class SharpImageResizer implements ImageResizer {
  async squarePng(data: Buffer, size: number): Promise<Buffer | null> {
    try {
      return await sharp(data, { limitInputPixels: 50_000_000 })
        .rotate()
        .resize(size, size, { fit: 'cover', position: 'centre' })
        .png()
        .toBuffer();
    } catch {
      // Not decodable (a truncated or disguised file): the caller answers Zulip's bad-image error.
      return null;
    }
  }
}
