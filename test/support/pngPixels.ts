import { inflateSync } from 'node:zlib';

/** A decoded image: RGBA, 8 bits a channel, rows top first. */
export interface Pixels {
  width: number;
  height: number;
  rgba: Uint8Array;
}

/**
 * Decode the PNGs Chromium's screenshots are: 8-bit RGB or RGBA, not interlaced. Enough to read
 * screenshot pixels in tests without an image library.
 */
export function decodePng(png: Uint8Array): Pixels {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  let width = 0,
    height = 0,
    channels = 0;
  const idat: Uint8Array[] = [];
  for (let at = 8; at < png.byteLength;) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const data = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      const depth = data[8],
        colour = data[9],
        interlace = data[12];
      if (depth !== 8 || (colour !== 2 && colour !== 6) || interlace !== 0)
        throw new Error(`unsupported PNG (depth ${depth}, colour type ${colour}, interlace ${interlace})`);
      channels = colour === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? rows[y * stride + x - channels]! : 0;
      const b = y > 0 ? rows[(y - 1) * stride + x]! : 0;
      const c = x >= channels && y > 0 ? rows[(y - 1) * stride + x - channels]! : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a),
        pb = Math.abs(p - b),
        pc = Math.abs(p - c);
      const predictor = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][filter];
      if (predictor === undefined) throw new Error(`unknown PNG filter ${filter}`);
      rows[y * stride + x] = (line[x]! + predictor) & 0xff;
    }
  }
  if (channels === 4) return { width, height, rgba: rows };
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < rows.length; i += 3, j += 4) {
    rgba[j] = rows[i]!;
    rgba[j + 1] = rows[i + 1]!;
    rgba[j + 2] = rows[i + 2]!;
    rgba[j + 3] = 255;
  }
  return { width, height, rgba };
}

/** The share of pixels that differ from `background` by more than `tolerance` in some channel. */
export function shareUnlike(img: Pixels, background: [number, number, number], tolerance: number): number {
  let unlike = 0;
  for (let i = 0; i < img.rgba.length; i += 4) {
    if (
      Math.abs(img.rgba[i]! - background[0]) > tolerance ||
      Math.abs(img.rgba[i + 1]! - background[1]) > tolerance ||
      Math.abs(img.rgba[i + 2]! - background[2]) > tolerance
    )
      unlike++;
  }
  return unlike / (img.width * img.height);
}

/** The share of pixels within `tolerance` of `colour` in every channel. */
export function shareLike(img: Pixels, colour: [number, number, number], tolerance: number): number {
  let like = 0;
  for (let i = 0; i < img.rgba.length; i += 4) {
    if (
      Math.abs(img.rgba[i]! - colour[0]) <= tolerance &&
      Math.abs(img.rgba[i + 1]! - colour[1]) <= tolerance &&
      Math.abs(img.rgba[i + 2]! - colour[2]) <= tolerance
    )
      like++;
  }
  return like / (img.width * img.height);
}

/** The mean colour of the (2r+1)² pixels around (x, y). */
export function colourAt(img: Pixels, x: number, y: number, r = 3): [number, number, number] {
  const sum: [number, number, number] = [0, 0, 0];
  let n = 0;
  for (let dy = -r; dy <= r; dy++)
    for (let dx = -r; dx <= r; dx++) {
      const px = Math.round(x) + dx,
        py = Math.round(y) + dy;
      if (px < 0 || py < 0 || px >= img.width || py >= img.height) continue;
      const i = (py * img.width + px) * 4;
      sum[0] += img.rgba[i]!;
      sum[1] += img.rgba[i + 1]!;
      sum[2] += img.rgba[i + 2]!;
      n++;
    }
  return sum.map((s) => Math.round(s / n)) as [number, number, number];
}
