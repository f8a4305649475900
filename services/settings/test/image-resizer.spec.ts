import sharp from 'sharp';
import { SharpImageResizer } from '../src/adapters/image-resizer';

describe('SharpImageResizer (Zulip resize_avatar)', () => {
  const resizer = new SharpImageResizer();

  it('crops a wide picture to the centre square and scales it, as a PNG', async () => {
    // Left third red, middle third green, right third blue: the centre crop keeps only green.
    const wide = await sharp({ create: { width: 300, height: 100, channels: 3, background: '#000' } })
      .composite([
        { input: { create: { width: 100, height: 100, channels: 3, background: '#f00' } }, left: 0, top: 0 },
        { input: { create: { width: 100, height: 100, channels: 3, background: '#0f0' } }, left: 100, top: 0 },
        { input: { create: { width: 100, height: 100, channels: 3, background: '#00f' } }, left: 200, top: 0 },
      ])
      .png()
      .toBuffer();
    const out = await resizer.squarePng(wide, 500);
    expect(out).not.toBeNull();
    const { data, info } = await sharp(out!).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    expect({ width: info.width, height: info.height, format: (await sharp(out!).metadata()).format }).toEqual({
      width: 500,
      height: 500,
      format: 'png',
    });
    // A pixel a little inside the left edge (the edge itself blends with the cropped-off red).
    const at = (250 * 500 + 50) * 3;
    const [r, g, b] = [data[at]!, data[at + 1]!, data[at + 2]!];
    expect(g).toBeGreaterThan(200);
    expect(r + b).toBeLessThan(60);
  });

  it('answers null for data it cannot decode, even behind an image signature', async () => {
    expect(await resizer.squarePng(Buffer.from('not an image'), 100)).toBeNull();
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#fff' } })
      .png()
      .toBuffer();
    expect(await resizer.squarePng(Buffer.concat([png.subarray(0, 20), Buffer.from('garbage')]), 100)).toBeNull();
  });
});
