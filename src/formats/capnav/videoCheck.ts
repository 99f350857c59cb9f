/**
 * Whether a touring video's bytes are the video they claim to be, read from its headers only (a
 * video may be tens of megabytes): an MP4 starts with its `ftyp` box, every top-level box fits in
 * the file, and its `moov` box (the index a player needs) is there; a WebM starts with the EBML
 * magic. An empty, cut, HTML or zip "MP4" once imported without a word and the player sat at 0:00
 * (issue 25 §8). The MP4's length in seconds, when its `mvhd` says it, is given back for checking
 * the poses against.
 */
export type ReadAt = (offset: number, length: number) => Promise<Uint8Array>;
export type VideoCheck = { ok: true; seconds?: number } | { ok: false; why: string };

/** Top-level boxes walked at most (a real MP4 has a handful). */
const MAX_BOXES = 10_000;

const u32 = (b: Uint8Array, at: number) => ((b[at]! << 24) >>> 0) + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
const fourcc = (b: Uint8Array, at: number) => String.fromCharCode(b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!);

export async function checkVideo(size: number, mime: string, read: ReadAt): Promise<VideoCheck> {
  if (size === 0) return { ok: false, why: 'is empty (0 bytes)' };
  if (/webm/i.test(mime)) {
    const head = await read(0, 4);
    return head.length === 4 && u32(head, 0) === 0x1a45dfa3 ? { ok: true } : { ok: false, why: 'is not a WebM video (it does not start with the EBML header)' };
  }
  let seconds: number | undefined;
  let moov = false;
  let off = 0;
  for (let n = 0; off < size; n++) {
    if (n >= MAX_BOXES) return { ok: false, why: `is not an MP4 video a player can use (more than ${MAX_BOXES.toLocaleString('en')} top-level boxes)` };
    const h = await read(off, 16);
    if (h.length < 8) return { ok: false, why: `is cut short: ${size - off} byte${size - off === 1 ? '' : 's'} at its end are not a whole box` };
    const type = fourcc(h, 4);
    if (n === 0 && type !== 'ftyp') return { ok: false, why: 'is not an MP4 video (it does not start with an ftyp box)' };
    let boxSize = u32(h, 0);
    if (boxSize === 1) {
      if (h.length < 16) return { ok: false, why: `is cut short inside its ${type} box` };
      boxSize = u32(h, 8) * 2 ** 32 + u32(h, 12);
    } else if (boxSize === 0) boxSize = size - off;
    if (boxSize < 8) return { ok: false, why: `is not an MP4 video (a box of ${boxSize} bytes at byte ${off})` };
    if (off + boxSize > size)
      return { ok: false, why: `is cut short: its ${type} box needs ${(off + boxSize).toLocaleString('en')} bytes, the file has ${size.toLocaleString('en')}` };
    if (type === 'moov') {
      moov = true;
      seconds = await movieSeconds(off, boxSize, read);
    }
    off += boxSize;
  }
  if (!moov) return { ok: false, why: 'holds no moov box (the index a player needs): an unfinished or cut recording' };
  return seconds === undefined ? { ok: true } : { ok: true, seconds };
}

/** The movie's length from the `mvhd` box at the start of `moov`, if it is there. */
async function movieSeconds(moovAt: number, moovSize: number, read: ReadAt): Promise<number | undefined> {
  if (moovSize < 8 + 32) return undefined;
  const m = await read(moovAt + 8, 40);
  if (m.length < 32 || fourcc(m, 4) !== 'mvhd') return undefined;
  const v1 = m[8] === 1;
  if (v1 && m.length < 40) return undefined;
  const timescale = u32(m, v1 ? 28 : 20);
  const duration = v1 ? u32(m, 32) * 2 ** 32 + u32(m, 36) : u32(m, 24);
  // 0 (a fragmented MP4 keeps its length elsewhere) or all ones: the length is not known here.
  if (!(timescale > 0) || duration === 0 || (!v1 && duration === 0xffffffff)) return undefined;
  return duration / timescale;
}
