/**
 * The video times a reason cites. CapNav's generator justified each question with times in its
 * touring video — "(0:05-0:07, 1:24-1:26)", "shown at 1:10-1:11", "(0:58)", "from 02:07 to 02:12"
 * — and a reviewer checks a question by watching those moments. Read off the released reasons:
 * `m:ss` and `mm:ss`, single or as a range joined by a hyphen, en or em dash (spaced or not) or
 * "to"; we also read `h:mm:ss` and decimal seconds (`0:54.5`), "until"/"till"/"through".
 *
 * What is NOT a video time:
 * - a clock time: `3:15 pm`, `10:30am`, `7:05 a.m.` (the am/pm says so);
 * - a ratio or score with a one-digit right side: `16:9`, `4:3` (seconds are always two digits);
 * - seconds of 60 or more (`1:75`) and a part of a longer run of digits and colons (`12:34:56:78`,
 *   `1234:56` with more than three minute digits).
 * Anything else of the form `m:ss` is taken as a time: text cannot tell `1:50 scale` from a time,
 * and reasons do not use such ratios.
 *
 * A range written end first (`1:52-1:48`, `3:29-3:25, reverse direction`: 18 times in the release,
 * where the route walks a stretch of the tour backwards) is kept, its ends put in order and marked
 * `reversed`, so the reviewer sees it was written that way.
 */
export interface CitedTime {
  /** The citation as written (`0:54-0:56`, `at 01:02` → `01:02`). */
  text: string;
  /** Where it starts in the text (UTF-16 index). */
  index: number;
  /** Seconds from the start of the video; `from <= to`. A single time has `from === to`. */
  from: number;
  to: number;
  /** A single time, not a range. */
  point: boolean;
  /** The range was written end first. */
  reversed: boolean;
}

const TIME = String.raw`(?:(\d{1,2}):(?=[0-5]\d:))?(\d{1,3}):([0-5]\d)(?:\.(\d{1,3}))?`;
const SEP = String.raw`\s*(?:-|–|—|\bto\b|\buntil\b|\btill\b|\bthrough\b)\s*`;
/** A time or a range; the look-arounds keep it from being part of a longer number. */
const CITATION = new RegExp(String.raw`(?<![\d:.])${TIME}(?:${SEP}${TIME})?(?![\d:]|\.\d)`, 'gi');
/** After a time, the am/pm of a clock (`3:15 pm`; `3:15 to 3:45 pm` is a clock range as a whole). */
const CLOCK_TAIL = /^\s*[ap]\.?m\b/i;

const seconds = (h: string | undefined, m: string, s: string, frac: string | undefined): number =>
  (h ? Number(h) * 3600 : 0) + Number(m) * 60 + Number(s) + (frac ? Number(`0.${frac}`) : 0);

/** Every time the text cites, in order. */
export function citedTimes(text: string): CitedTime[] {
  const out: CitedTime[] = [];
  for (const m of text.matchAll(CITATION)) {
    const [whole, h1, m1, s1, f1, h2, m2, s2, f2] = m;
    if (CLOCK_TAIL.test(text.slice(m.index + whole.length))) continue;
    // With hours, the minutes are a clock's (two digits, below 60).
    if (h1 && Number(m1) > 59) continue;
    const a = seconds(h1, m1!, s1!, f1);
    if (m2 === undefined) {
      out.push({ text: whole, index: m.index, from: a, to: a, point: true, reversed: false });
      continue;
    }
    if (h2 && Number(m2) > 59) continue;
    const b = seconds(h2, m2, s2!, f2);
    out.push({ text: whole, index: m.index, from: Math.min(a, b), to: Math.max(a, b), point: false, reversed: b < a });
  }
  return out;
}

/**
 * `mm:ss` (or `h:mm:ss` from an hour on), rounded down: how the prompt, the buttons and the tour
 * panel write a video time. With `decimals`, the seconds keep that many (a 2 fps tour's frames
 * fall on half seconds: `00:03.5`).
 */
export function formatVideoTime(t: number, decimals = 0): string {
  const scale = 10 ** decimals;
  const units = Math.max(0, Math.floor(t * scale + 1e-6));
  const total = Math.floor(units / scale);
  const h = Math.floor(total / 3600),
    m = Math.floor((total % 3600) / 60),
    s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  const sec = decimals > 0 ? `${two(s)}.${String(units % scale).padStart(decimals, '0')}` : two(s);
  return h > 0 ? `${h}:${two(m)}:${sec}` : `${two(m)}:${sec}`;
}

/**
 * How long a single cited time plays: the generator cites whole seconds, so `0:58` means the
 * second starting there.
 */
export const POINT_SECONDS = 1;

/** The stretch of video a citation plays: a range as written, a single time for one second. */
export function playWindow(c: Pick<CitedTime, 'from' | 'to' | 'point'>): { from: number; to: number } {
  return { from: c.from, to: c.point ? c.from + POINT_SECONDS : c.to };
}
